import { describe, expect, it } from "vitest";
import {
  api,
  createAccount,
  createService,
  json,
  problem,
  serviceBody,
  sleep,
  totalOf,
  validationError,
} from "../helpers";

const serviceFields = [
  "active",
  "bufferAfterMinutes",
  "bufferBeforeMinutes",
  "capacity",
  "createdAt",
  "dateOverrides",
  "description",
  "durationMinutes",
  "id",
  "maxAdvanceDays",
  "minNoticeMinutes",
  "name",
  "providerIds",
  "requiresConfirmation",
  "slotIntervalMinutes",
  "timezone",
  "updatedAt",
  "weeklySchedule",
];
const rfc3339Utc = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Active plus inactive services of the caller. */
const storedServices = async (key: string) =>
  (await totalOf(key, "/services")) + (await totalOf(key, "/services?active=false"));

describe("happy", () => {
  it("creates a service with defaults, a Location header and the public shape", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/services", { key: apiKey, body: serviceBody() });
    expect(res.status).toBe(201);
    const service = await json(res);
    expect(Object.keys(service).sort()).toEqual(serviceFields);
    expect(service.id).toMatch(/^svc_[0-9a-z]{26}$/);
    expect(res.headers.get("Location")).toBe(`/api/v1/services/${service.id}`);
    expect(service).toMatchObject({
      name: "Consultation",
      description: null,
      durationMinutes: 30,
      capacity: 1,
      slotIntervalMinutes: 30,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      timezone: "UTC",
      active: true,
      requiresConfirmation: false,
    });
    expect(service.createdAt).toMatch(rfc3339Utc);
    expect(service.updatedAt).toBe(service.createdAt);

    const fetched = await api("GET", res.headers.get("Location")?.replace("/api/v1", "") ?? "", { key: apiKey });
    expect(fetched.status).toBe(200);
    expect(await json(fetched)).toEqual(service);
  });

  it("defaults slotIntervalMinutes to the duration, and keeps explicit values", async () => {
    const { apiKey } = await createAccount();
    expect((await createService(apiKey, { durationMinutes: 45 })).slotIntervalMinutes).toBe(45);
    const explicit = await createService(apiKey, {
      durationMinutes: 60,
      slotIntervalMinutes: 15,
      capacity: 4,
      bufferBeforeMinutes: 5,
      bufferAfterMinutes: 10,
      requiresConfirmation: true,
      description: "Group class",
      timezone: "Europe/Berlin",
    });
    expect(explicit).toMatchObject({
      durationMinutes: 60,
      slotIntervalMinutes: 15,
      capacity: 4,
      bufferBeforeMinutes: 5,
      bufferAfterMinutes: 10,
      requiresConfirmation: true,
      description: "Group class",
      timezone: "Europe/Berlin",
    });
  });

  it("accepts a day ending at 24:00 and back-to-back intervals", async () => {
    const { apiKey } = await createAccount();
    const weeklySchedule = {
      fri: [{ start: "18:00", end: "24:00" }],
      mon: [
        { start: "09:00", end: "12:00" },
        { start: "12:00", end: "17:00" },
      ],
    };
    const service = await createService(apiKey, { weeklySchedule });
    expect(service.weeklySchedule).toEqual(weeklySchedule);
  });

  it("lists active services by default and inactive ones with active=false", async () => {
    const { apiKey } = await createAccount();
    const active = await createService(apiKey, { name: "Active" });
    const inactive = await createService(apiKey, { name: "Retired", active: false });

    const byDefault = await json(await api("GET", "/services", { key: apiKey }));
    expect(byDefault.data.map((s: { id: string }) => s.id)).toEqual([active.id]);
    expect(byDefault.pagination.total).toBe(1);

    const explicitTrue = await json(await api("GET", "/services?active=true", { key: apiKey }));
    expect(explicitTrue.data.map((s: { id: string }) => s.id)).toEqual([active.id]);

    const onlyInactive = await json(await api("GET", "/services?active=false", { key: apiKey }));
    expect(onlyInactive.data.map((s: { id: string }) => s.id)).toEqual([inactive.id]);
    expect(onlyInactive.data[0]).toEqual(inactive);
  });

  it("gets a service by id", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await api("GET", `/services/${service.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(service);
  });

  it("PATCH changes only the given fields and bumps updatedAt", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await sleep(5);
    const res = await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { name: "Long consultation" } });
    expect(res.status).toBe(200);
    const updated = await json(res);
    const { name: _n, updatedAt: _u, ...unchanged } = service;
    expect(updated).toMatchObject({ ...unchanged, name: "Long consultation" });
    expect(updated.updatedAt).toMatch(rfc3339Utc);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(service.updatedAt));
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(updated);
  });

  it("PATCH active=false moves the service out of the default list", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { active: false } });
    expect(res.status).toBe(200);
    expect((await json(res)).active).toBe(false);
    expect(await totalOf(apiKey, "/services")).toBe(0);
    expect(await totalOf(apiKey, "/services?active=false")).toBe(1);
  });

  it("PATCH replaces the weekly schedule and clears the description with null", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { description: "Old" });
    const weeklySchedule = { sat: [{ start: "10:00", end: "14:00" }] };
    const res = await api("PATCH", `/services/${service.id}`, {
      key: apiKey,
      body: { weeklySchedule, description: null },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ weeklySchedule, description: null });
  });
});

describe("errors", () => {
  const invalidBodies: [string, Record<string, unknown>, string][] = [
    ["an unknown IANA time zone", { timezone: "Mars/Olympus" }, "timezone"],
    [
      "a start that is not HH:MM",
      { weeklySchedule: { mon: [{ start: "9:00", end: "17:00" }] } },
      "weeklySchedule.mon.0.start",
    ],
    ["24:00 as a start", { weeklySchedule: { mon: [{ start: "24:00", end: "24:00" }] } }, "weeklySchedule.mon.0.start"],
    [
      "an end before the start",
      { weeklySchedule: { tue: [{ start: "17:00", end: "09:00" }] } },
      "weeklySchedule.tue.0.end",
    ],
    [
      "an end equal to the start",
      { weeklySchedule: { tue: [{ start: "09:00", end: "09:00" }] } },
      "weeklySchedule.tue.0.end",
    ],
    [
      "overlapping intervals in one day",
      {
        weeklySchedule: {
          wed: [
            { start: "09:00", end: "12:00" },
            { start: "11:00", end: "13:00" },
          ],
        },
      },
      "weeklySchedule.wed.1",
    ],
    [
      "an unknown weekday key",
      { weeklySchedule: { funday: [{ start: "09:00", end: "17:00" }] } },
      "weeklySchedule.funday",
    ],
    ["durationMinutes 0", { durationMinutes: 0 }, "durationMinutes"],
    ["durationMinutes 1.5", { durationMinutes: 1.5 }, "durationMinutes"],
    ['durationMinutes "30"', { durationMinutes: "30" }, "durationMinutes"],
    ["capacity 0", { capacity: 0 }, "capacity"],
    ["a negative buffer", { bufferBeforeMinutes: -5 }, "bufferBeforeMinutes"],
    ["a negative after-buffer", { bufferAfterMinutes: -1 }, "bufferAfterMinutes"],
    ["an unknown top-level field", { colour: "red" }, "colour"],
    ["a missing name", { name: undefined }, "name"],
    ["a blank name", { name: "   " }, "name"],
  ];

  it.each(invalidBodies)("POST rejects %s with 422 naming the path and stores nothing", async (_, overrides, path) => {
    const { apiKey } = await createAccount();
    await createService(apiKey);
    const res = await api("POST", "/services", { key: apiKey, body: serviceBody(overrides) });
    const entry = await validationError(res, path);
    if (path === "colour") expect(entry.message).toContain("colour");
    if (path === "weeklySchedule.funday") expect(entry.message).toContain("funday");
    expect(await storedServices(apiKey)).toBe(1);
  });

  it("reports every invalid field at once", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/services", {
      key: apiKey,
      body: serviceBody({ timezone: "Mars/Olympus", capacity: 0, durationMinutes: 0 }),
    });
    const body = await problem(res, 422, "validation_failed");
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "capacity",
      "durationMinutes",
      "timezone",
    ]);
  });

  it("GET /services rejects active=maybe", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/services?active=maybe", { key: apiKey }), "active");
  });

  it("GET and PATCH of an unknown id are 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/services/svc_unknown", { key: apiKey }), 404, "not_found");
    await problem(await api("PATCH", "/services/svc_unknown", { key: apiKey, body: { name: "x" } }), 404, "not_found");
  });

  const invalidPatches: [string, Record<string, unknown>, string][] = [
    ["an empty body", {}, "(root)"],
    ["an unknown field", { colour: "red" }, "colour"],
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone"],
    [
      "an overlapping schedule",
      {
        weeklySchedule: {
          mon: [
            { start: "09:00", end: "12:00" },
            { start: "10:00", end: "11:00" },
          ],
        },
      },
      "weeklySchedule.mon.1",
    ],
    ["capacity 0", { capacity: 0 }, "capacity"],
    ["a null name", { name: null }, "name"],
  ];

  it.each(invalidPatches)("PATCH rejects %s with 422 and changes nothing", async (_, body, path) => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await api("PATCH", `/services/${service.id}`, { key: apiKey, body }), path);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });
});

describe("security", () => {
  it("every services route needs an API key", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    for (const [method, path, body] of [
      ["GET", "/services", undefined],
      ["POST", "/services", serviceBody()],
      ["GET", `/services/${service.id}`, undefined],
      ["PATCH", `/services/${service.id}`, { name: "Hijacked" }],
    ] as const) {
      await problem(await api(method, path, { body }), 401, "unauthorized");
    }
    expect(await storedServices(apiKey)).toBe(1);
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).name).toBe("Consultation");
  });

  it("another business cannot read, list or change the service", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey);
    await problem(await api("GET", `/services/${service.id}`, { key: other.apiKey }), 404, "not_found");
    await problem(
      await api("PATCH", `/services/${service.id}`, { key: other.apiKey, body: { name: "Hijacked" } }),
      404,
      "not_found",
    );
    expect(await totalOf(other.apiKey, "/services")).toBe(0);
    expect((await json(await api("GET", `/services/${service.id}`, { key: owner.apiKey }))).name).toBe("Consultation");
  });
});
