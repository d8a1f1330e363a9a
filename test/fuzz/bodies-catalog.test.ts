/**
 * Fuzzed JSON bodies for the catalog writes: POST /services, PATCH /services/{id} and
 * POST /customers. Whatever arrives, the answer is never a 5xx, a rejection is a problem+json
 * and changes nothing the business stored, and a success leaves a resource that reads back.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { api, json, serviceBody } from "../helpers";
import { bodyCases, bodyOptions, check, createRoomyService, KeyRing, sendChecked } from "./support";

const RUNS = 150;

const serviceFields = [
  "name",
  "description",
  "durationMinutes",
  "capacity",
  "slotIntervalMinutes",
  "bufferBeforeMinutes",
  "bufferAfterMinutes",
  "minNoticeMinutes",
  "maxAdvanceDays",
  "timezone",
  "weeklySchedule",
  "requiresConfirmation",
  "active",
] as const;

/** Inside a weekly schedule too: days, intervals, their ends. */
const servicePaths = [
  ...serviceFields.map((f) => [f]),
  ["weeklySchedule", "mon"],
  ["weeklySchedule", "sun", 0],
  ["weeklySchedule", "mon", 0, "start"],
  ["weeklySchedule", "mon", 0, "end"],
  ["weeklySchedule", "tue", 1],
  ["weeklySchedule", "xyz"],
  ["weeklySchedule", "mon", 0, "extra"],
];

const timezones = fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham");

const validService = fc
  .record({
    name: fc.string({ minLength: 1, maxLength: 30 }).map((s) => `Svc ${s}`),
    durationMinutes: fc.integer({ min: 5, max: 240 }),
    timezone: timezones,
    capacity: fc.integer({ min: 1, max: 5 }),
  })
  .map((fields) => serviceBody(fields) as Record<string, unknown>);

const validServicePatch = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }).map((s) => ({ name: `Renamed ${s}` })),
  fc.constantFrom<Record<string, unknown>>(
    { description: "Changed." },
    { description: null },
    { capacity: 3 },
    { active: true },
    { minNoticeMinutes: 60 },
    { weeklySchedule: { mon: [{ start: "08:00", end: "12:00" }] } },
    { timezone: "Asia/Tokyo", slotIntervalMinutes: 15 },
  ),
);

const validCustomer = fc
  .record({ name: fc.string({ minLength: 1, maxLength: 40 }), email: fc.uuid() })
  .map(({ name, email }) => ({ name: `C ${name}`, email: `${email}@example.com` }) as Record<string, unknown>);

let ring: KeyRing;
let patchTarget: { id: string };

beforeAll(async () => {
  ring = await KeyRing.create("Fuzz catalog");
  patchTarget = await createRoomyService(ring, { name: "Patch target" });
});

/** A service a 2xx wrote reads back, and its calendar answers. */
async function expectServiceReadable(id: string, context: string) {
  const got = await api("GET", `/services/${id}`, { key: await ring.key() });
  expect(got.status, `${context}: GET after write → ${await got.clone().text()}`).toBe(200);
  const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
  const to = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 19);
  const slots = await api("GET", `/services/${id}/availability?from=${from}Z&to=${to}Z`, { key: await ring.key() });
  expect(slots.status, `${context}: availability after write → ${await slots.clone().text()}`).toBe(200);
}

describe("fuzzed bodies: catalog", () => {
  it("POST /services never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({ valid: validService, fields: serviceFields, paths: servicePaths }),
      async (body) => {
        const res = await sendChecked(ring, "POST", "/services", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, res.text).toBe(201);
        if (res.status === 201) await expectServiceReadable((res.body as { id: string }).id, "POST /services");
      },
      RUNS,
    );
  });

  it("PATCH /services/{id} never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({ valid: validServicePatch, fields: serviceFields, paths: servicePaths }),
      async (body) => {
        const res = await sendChecked(ring, "PATCH", `/services/${patchTarget.id}`, bodyOptions(body));
        if (body.kind === "valid") expect(res.status, res.text).toBe(200);
        if (res.status === 200) await expectServiceReadable(patchTarget.id, "PATCH /services/{id}");
      },
      RUNS,
    );
  });

  it("POST /customers never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({
        valid: validCustomer,
        fields: ["name", "email", "phone"],
        extraValues: fc.constantFrom("ada@example.com", "ADA@EXAMPLE.COM", "+49 30 1234567", "+1 (555) 010-0000"),
      }),
      async (body) => {
        const res = await sendChecked(ring, "POST", "/customers", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, res.text).toBe(201);
        if (res.status === 201) {
          const created = res.body as { id: string };
          const got = await api("GET", `/customers/${created.id}`, { key: await ring.key() });
          expect(got.status).toBe(200);
          expect(await json(got)).toEqual(created);
        }
      },
      RUNS,
    );
  });
});
