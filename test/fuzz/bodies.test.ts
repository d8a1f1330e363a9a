/**
 * Fuzzed JSON bodies for every write with a body: POST /services, PATCH /services/{id},
 * POST and PATCH /providers,
 * POST /customers, POST /bookings, PATCH /bookings/{id} and POST /bookings/{id}/cancel.
 * Random JSON, objects with random keys, valid bodies with one field made hostile, malformed
 * JSON text, raw bytes, valid bodies with bytes that are not UTF-8 in a string, SQL/LIKE
 * metacharacters, 10k–70k character strings, unicode and edge numbers. Whatever arrives: never a
 * 5xx; a rejection is a problem+json and changes nothing the business stored (D1 rows and the
 * service's calendar: reservations, counters, outbox); a success leaves a resource that reads back.
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings } from "../../src/db/schema";
import { api, createAccount, createService, db, json, serviceBody } from "../support/api";
import {
  bodyCases,
  bodyOptions,
  check,
  createBookingVia,
  createRoomyService,
  freshBookingBody,
  futureSlot,
  KeyRing,
  MINUTE_MS,
  printable,
  sendChecked,
  shown,
} from "../support/fuzz";

const RUNS = 80;

// --- catalog: services and customers ---------------------------------------------------

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
  "cancellationNoticeMinutes",
  "rescheduleNoticeMinutes",
  "timezone",
  "weeklySchedule",
  "dateOverrides",
  "providerIds",
  "providerMode",
  "resourceIds",
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
  ["dateOverrides", 0],
  ["dateOverrides", 0, "date"],
  ["dateOverrides", 0, "intervals", 0, "end"],
  ["providerIds", 0],
  ["resourceIds", 0],
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
    { dateOverrides: [{ date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] }] },
    { providerIds: [] },
  ),
);

const providerFields = ["name", "email", "timezone", "weeklySchedule", "dateOverrides", "active"] as const;

const validProvider = fc.record({ name: fc.string({ minLength: 1, maxLength: 30 }), timezone: timezones }).map(
  ({ name, timezone }) =>
    ({
      name: `P ${name}`,
      timezone,
      weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] },
      dateOverrides: [{ date: "2026-12-24", intervals: [] }],
    }) as Record<string, unknown>,
);

const validCustomer = fc
  .record({ name: fc.string({ minLength: 1, maxLength: 40 }), email: fc.uuid() })
  .map(({ name, email }) => ({ name: `C ${name}`, email: `${email}@example.com` }) as Record<string, unknown>);

let catalogRing: KeyRing;
let patchTarget: { id: string };

beforeAll(async () => {
  catalogRing = await KeyRing.create("Fuzz catalog");
  patchTarget = await createRoomyService(catalogRing, { name: "Patch target" });
});

/** A service a 2xx wrote reads back, and its calendar answers. */
async function expectServiceReadable(id: string, context: string) {
  const got = await api("GET", `/services/${id}`, { key: await catalogRing.key() });
  const gotText = await got.text();
  expect(got.status, printable(`${context}: GET after write → ${gotText.slice(0, 500)}`)).toBe(200);
  const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
  const to = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 19);
  const slots = await api("GET", `/services/${id}/availability?from=${from}Z&to=${to}Z`, {
    key: await catalogRing.key(),
  });
  const slotsText = await slots.text();
  expect(slots.status, printable(`${context}: availability after write → ${slotsText.slice(0, 500)}`)).toBe(200);
}

describe("fuzzed bodies: catalog", () => {
  it("POST /services never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({ valid: validService, fields: serviceFields, paths: servicePaths }),
      async (body) => {
        const res = await sendChecked(catalogRing, "POST", "/services", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(201);
        if (res.status === 201) await expectServiceReadable((res.body as { id: string }).id, "POST /services");
      },
      RUNS,
    );
  });

  it("PATCH /services/{id} never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({ valid: validServicePatch, fields: serviceFields, paths: servicePaths }),
      async (body) => {
        const res = await sendChecked(catalogRing, "PATCH", `/services/${patchTarget.id}`, bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(200);
        if (res.status === 200) await expectServiceReadable(patchTarget.id, "PATCH /services/{id}");
      },
      RUNS,
    );
  });

  it("POST and PATCH /providers never fail, and rejections change nothing", async () => {
    const target = await sendChecked(catalogRing, "POST", "/providers", {
      body: { name: "Patch target", timezone: "UTC", weeklySchedule: {} },
    });
    const targetId = (target.body as { id: string }).id;
    const paths = [
      ...providerFields.map((f) => [f]),
      ["dateOverrides", 0, "date"],
      ["dateOverrides", 0, "intervals"],
      ["weeklySchedule", "mon", 0, "start"],
    ];
    await check(
      bodyCases({ valid: validProvider, fields: providerFields, paths }),
      async (body) => {
        const res = await sendChecked(catalogRing, "POST", "/providers", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(201);
        const patch = await sendChecked(catalogRing, "PATCH", `/providers/${targetId}`, bodyOptions(body));
        if (body.kind === "valid") expect(patch.status, printable(patch.text)).toBe(200);
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
        const res = await sendChecked(catalogRing, "POST", "/customers", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(201);
        if (res.status === 201) {
          const created = res.body as { id: string };
          const got = await api("GET", `/customers/${created.id}`, { key: await catalogRing.key() });
          expect(got.status).toBe(200);
          expect(shown(await json(got))).toBe(shown(created));
        }
      },
      RUNS,
    );
  });
});

/** Whether a JSON text holds a \\uD800–\\uDFFF escape that is not half of a pair. */
function hasLoneSurrogate(jsonText: string): boolean {
  return /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i.test(jsonText);
}

// --- bookings ---------------------------------------------------------------------------

const bookingFields = [
  "serviceId",
  "customerName",
  "customerEmail",
  "customerPhone",
  "startTime",
  "endTime",
  "notes",
] as const;

let bookingRing: KeyRing;
let roomy: { id: string };
let inactive: { id: string };
let foreignServiceId: string;
let live: { id: string } | undefined;

beforeAll(async () => {
  bookingRing = await KeyRing.create("Fuzz bookings");
  roomy = await createRoomyService(bookingRing, { name: "Roomy" });
  inactive = await createRoomyService(bookingRing, { name: "Closed", active: false });
  bookingRing.watched.push(roomy.id, inactive.id);
  const other = await createAccount("Other tenant");
  foreignServiceId = (await createService(other.apiKey)).id;
});

/** A booking of the roomy service that still holds its slot (a new one once the last is final). */
async function liveBookingId(): Promise<string> {
  if (live) {
    const [row] = await db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, live.id));
    if (row && (row.status === "CONFIRMED" || row.status === "PENDING")) return live.id;
  }
  live = await createBookingVia(bookingRing, roomy.id);
  return live.id;
}

const validBooking = fc
  .record({ start: futureSlot, name: fc.string({ minLength: 1, maxLength: 40 }), email: fc.uuid() })
  .map(
    ({ start, name, email }) =>
      ({
        serviceId: roomy.id,
        customerName: `B ${name}`,
        customerEmail: `${email}@example.com`,
        startTime: start,
        endTime: `${new Date(Date.parse(start) + 30 * MINUTE_MS).toISOString().slice(0, 19)}Z`,
      }) as Record<string, unknown>,
  );

/** Ids and times that are valid somewhere, but not here. */
const nearMisses = fc.oneof(
  fc.constantFrom("svc_00000000000000000000000000", "SVC_X"),
  fc.constant(null).map(() => inactive.id),
  fc.constant(null).map(() => foreignServiceId),
  fc.constant(null).map(() => roomy.id.toUpperCase()),
  fc.constant(null).map(() => `${roomy.id} `),
  fc.constantFrom("2000-01-01T10:00:00Z", "2999-01-01T10:00:00Z", "+01:00"),
);

describe("fuzzed bodies: bookings", () => {
  it("POST /bookings never fails, and rejections change nothing", async () => {
    await check(
      bodyCases({ valid: validBooking, fields: bookingFields, extraValues: nearMisses }),
      async (body) => {
        const res = await sendChecked(bookingRing, "POST", "/bookings", bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(201);
        if (res.status === 201) {
          const created = res.body as { id: string };
          const got = await api("GET", `/bookings/${created.id}`, { key: await bookingRing.key() });
          expect(got.status).toBe(200);
          // Text with a lone surrogate is a 422 (the end of this file), so what was created reads back as answered.
          expect(hasLoneSurrogate(res.text), printable(res.text)).toBe(false);
          expect(shown(await json(got))).toBe(shown(created));
        }
      },
      RUNS,
    );
  });

  it("PATCH /bookings/{id} never fails, and rejections change nothing", async () => {
    const validPatch = fc.constantFrom<Record<string, unknown>>(
      { notes: "Changed." },
      { notes: null },
      { notes: "" },
      // COMPLETED and NO_SHOW are 409s before the appointment starts: not valid for a future booking.
      { status: "CANCELLED" },
      { status: "CANCELLED", cancellationReason: "Ill." },
      { status: "CANCELLED", notes: "Did not come." },
    );
    await check(
      bodyCases({ valid: validPatch, fields: ["status", "notes", "cancellationReason"] }),
      async (body) => {
        const id = await liveBookingId();
        const res = await sendChecked(bookingRing, "PATCH", `/bookings/${id}`, bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(200);
      },
      RUNS,
    );
  });

  it("POST /bookings/{id}/cancel never fails, and rejections change nothing", async () => {
    const validCancel = fc.constantFrom<Record<string, unknown>>({}, { reason: "Customer is ill." }, { reason: " x " });
    await check(
      bodyCases({ valid: validCancel, fields: ["reason"] }),
      async (body) => {
        const id = await liveBookingId();
        const res = await sendChecked(bookingRing, "POST", `/bookings/${id}/cancel`, bodyOptions(body));
        if (body.kind === "valid") expect(res.status, printable(res.text)).toBe(200);
      },
      RUNS,
    );
  });
});

// --- bytes that are not UTF-8 -------------------------------------------------------------

/** Byte sequences that are never UTF-8, wherever they stand (each is followed by ASCII). */
const notUtf8 = fc.oneof(
  fc.integer({ min: 0x80, max: 0xbf }).map((b) => [b]), // a continuation byte with no lead
  fc.integer({ min: 0xf5, max: 0xff }).map((b) => [b]), // bytes UTF-8 never uses
  fc.integer({ min: 0xc2, max: 0xf4 }).map((lead) => [lead]), // a lead byte cut short
  fc.tuple(fc.constantFrom(0xc0, 0xc1), fc.integer({ min: 0x80, max: 0xbf })), // overlong, 2 bytes
  fc.tuple(fc.constant(0xe0), fc.integer({ min: 0x80, max: 0x9f }), fc.integer({ min: 0x80, max: 0xbf })), // overlong, 3
  fc.tuple(fc.constant(0xed), fc.integer({ min: 0xa0, max: 0xbf }), fc.integer({ min: 0x80, max: 0xbf })), // a surrogate
  fc.integer({ min: 0xe9, max: 0xe9 }).map((b) => [b]), // Latin-1 é
);

/** The body as UTF-8, with `bytes` spliced into the string value of `field`. */
function withBytesIn(body: Record<string, unknown>, field: string, bytes: number[]): Uint8Array {
  const marker = "\u0000SPLICE\u0000";
  const text = JSON.stringify({ ...body, [field]: `x${marker}y` });
  const [head = "", tail = ""] = text.split(JSON.stringify(marker).slice(1, -1));
  const encode = (part: string) => [...new TextEncoder().encode(part)];
  return new Uint8Array([...encode(head), ...bytes, ...encode(tail)]);
}

describe("fuzzed bodies: bytes that are not UTF-8", () => {
  it("a valid body with one string made of bytes that are not UTF-8 is a 400 malformed_json and changes nothing", async () => {
    const routes = [
      { ring: () => catalogRing, method: "POST", path: () => "/customers", valid: validCustomer, fields: ["name"] },
      { ring: () => catalogRing, method: "POST", path: () => "/services", valid: validService, fields: ["name"] },
      {
        ring: () => catalogRing,
        method: "PATCH",
        path: () => `/services/${patchTarget.id}`,
        valid: fc.constant({ name: "Renamed" }),
        fields: ["name", "description"],
      },
      {
        ring: () => bookingRing,
        method: "POST",
        path: () => "/bookings",
        valid: validBooking,
        fields: ["customerName", "notes"],
      },
    ];
    // By index, so that a counterexample prints the route's number rather than its functions.
    const request = fc.integer({ min: 0, max: routes.length - 1 }).chain((index) => {
      const route = routes[index] as (typeof routes)[number];
      return fc.tuple(fc.constant(index), route.valid, fc.constantFrom(...route.fields), notUtf8);
    });
    await check(
      request,
      async ([index, body, field, bytes]) => {
        const route = routes[index] as (typeof routes)[number];
        const res = await sendChecked(route.ring(), route.method, route.path(), {
          rawBody: withBytesIn(body, field, bytes),
          headers: { "Content-Type": "application/json" },
          context: `${field} with bytes ${bytes.map((b) => b.toString(16)).join(" ")}`,
        });
        expect(res.status, printable(res.text)).toBe(400);
        expect((res.body as { code: string }).code).toBe("malformed_json");
      },
      RUNS,
    );
  });
});

// --- unpaired surrogates (found while fuzzing request bodies) ------------------------------

describe("lone UTF-16 surrogates in booking text (found while fuzzing request bodies)", () => {
  // JSON allows "\ud800" escapes, but D1 stores UTF-8, where a lone surrogate would become
  // U+FFFD × 3 and the booking would read back unlike its answer, and unlike the calendar's copy.
  // Such text is refused (docs/api-behaviour.md, "Input"): a 422 naming the field, nothing stored.
  const illFormed = (path: string) => [{ path, message: "Text must be well-formed Unicode (no unpaired surrogates)." }];

  it("POST /bookings: a 422 naming the first ill-formed field, and nothing stored", async () => {
    const body = freshBookingBody(roomy.id, { customerName: "Ada \ud800 Lovelace", notes: "n\udfffx" });
    const created = await sendChecked(bookingRing, "POST", "/bookings", { body });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ status: 422, code: "validation_failed" });
    expect((created.body as { errors: unknown }).errors).toEqual(illFormed("customerName"));
  });

  it("PATCH /bookings/{id}: a 422 naming notes, and the booking unchanged", async () => {
    const { id } = await createBookingVia(bookingRing, roomy.id);
    bookingRing.known = undefined; // the create above wrote without sendChecked
    const patched = await sendChecked(bookingRing, "PATCH", `/bookings/${id}`, { body: { notes: "x\ud83d" } });
    expect(patched.status).toBe(422);
    expect(patched.body).toMatchObject({ status: 422, code: "validation_failed" });
    expect((patched.body as { errors: unknown }).errors).toEqual(illFormed("notes"));
  });
});
