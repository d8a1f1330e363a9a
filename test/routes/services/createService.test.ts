/** POST /services: add a service to the catalog. */
import { describe, expect, it } from "vitest";
import {
  api,
  createAccount,
  createService,
  json,
  problem,
  serviceBody,
  totalOf,
  validationError,
} from "../../support/api";
import { at, availability, bookingBody, dayOf, postBooking } from "../../support/bookings";
import { mostLinks, newProvider } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

const serviceFields = [
  "active",
  "assignment",
  "bookableOnline",
  "bufferAfterMinutes",
  "bufferBeforeMinutes",
  "cancellationNoticeMinutes",
  "capacity",
  "createdAt",
  "dateOverrides",
  "description",
  "durationMinutes",
  "id",
  "limits",
  "maxActivePerCustomer",
  "maxAdvanceDays",
  "minNoticeMinutes",
  "name",
  "providerIds",
  "providerMode",
  "questions",
  "reminders",
  "requiresConfirmation",
  "rescheduleNoticeMinutes",
  "resourceIds",
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
      cancellationNoticeMinutes: 0,
      rescheduleNoticeMinutes: 0,
      questions: [],
      reminders: [],
      timezone: "UTC",
      active: true,
      requiresConfirmation: false,
      bookableOnline: false,
      limits: { perDay: null, perWeek: null },
      maxActivePerCustomer: null,
      assignment: "first",
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
      bookableOnline: true,
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
      bookableOnline: true,
      description: "Group class",
      timezone: "Europe/Berlin",
    });
  });

  it("stores booking limits at their bounds and balanced assignment; get and list answer them", async () => {
    const { apiKey } = await createAccount();
    const low = await createService(apiKey, { limits: { perDay: 1, perWeek: 1 }, maxActivePerCustomer: 1 });
    expect(low).toMatchObject({ limits: { perDay: 1, perWeek: 1 }, maxActivePerCustomer: 1, assignment: "first" });
    const high = await createService(apiKey, {
      limits: { perDay: 1000, perWeek: 10_000 },
      maxActivePerCustomer: 100,
      assignment: "balanced",
    });
    expect(high).toMatchObject({
      limits: { perDay: 1000, perWeek: 10_000 },
      maxActivePerCustomer: 100,
      assignment: "balanced",
    });
    // One limit alone: the other answers null; null is accepted as "none".
    const weekOnly = await createService(apiKey, { limits: { perWeek: 5, perDay: null }, maxActivePerCustomer: null });
    expect(weekOnly).toMatchObject({ limits: { perDay: null, perWeek: 5 }, maxActivePerCustomer: null });
    expect(await json(await api("GET", `/services/${high.id}`, { key: apiKey }))).toEqual(high);
    const listed = (await json(await api("GET", "/services", { key: apiKey }))).data;
    expect(listed.find((s: { id: string }) => s.id === low.id)).toEqual(low);
  });

  it("a service created with a daily limit refuses the booking past it, and its slot calendar agrees", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { limits: { perDay: 2 } });
    for (const time of ["09:00", "10:00"]) {
      expect((await postBooking(apiKey, bookingBody(service.id, at(3, time)))).status).toBe(201);
    }
    const over = await postBooking(apiKey, bookingBody(service.id, at(3, "11:00")));
    expect((await problem(over, 409, "slot_unavailable")).reason).toBe("limit_reached");
    const day = (await availability(apiKey, service.id, at(3, "00:00"), at(4, "00:00"))).slots;
    expect(day.filter((s: { bookable: boolean }) => s.bookable)).toEqual([]);
    expect(
      day.find((s: { startTime: string }) => Date.parse(s.startTime) === Date.parse(at(3, "11:00"))),
    ).toMatchObject({ bookable: false, reason: "limit_reached", remaining: 1 });
    // The next day is untouched.
    expect((await postBooking(apiKey, bookingBody(service.id, at(4, "11:00")))).status).toBe(201);
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

  it("stores providerIds, answered sorted on create, get and list, and defaulting to []", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const b = await newProvider(apiKey, "B");
    const plain = await createService(apiKey);
    expect(plain.providerIds).toEqual([]);
    const service = await createService(apiKey, { providerIds: [b, a] });
    expect(service.providerIds).toEqual([a, b].sort());
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).providerIds).toEqual(
      [a, b].sort(),
    );
    const listed = await json(await api("GET", "/services", { key: apiKey }));
    const byId = Object.fromEntries(
      listed.data.map((s: { id: string; providerIds: string[] }) => [s.id, s.providerIds]),
    );
    expect(byId).toEqual({ [plain.id]: [], [service.id]: [a, b].sort() });
  });

  it("stores the documented maximum of 50 providerIds and 5 resourceIds, and books with them (issue 36: 34 or more providers were a 500)", async () => {
    const { apiKey } = await createAccount();
    const { providerIds, resourceIds } = await mostLinks(apiKey);
    const res = await api("POST", "/services", { key: apiKey, body: serviceBody({ providerIds, resourceIds }) });
    expect(res.status).toBe(201);
    const service = await json(res);
    expect(service).toMatchObject({ providerIds: [...providerIds].sort(), resourceIds: [...resourceIds].sort() });
    const fetched = await json(await api("GET", `/services/${service.id}`, { key: apiKey }));
    expect(fetched).toMatchObject({ providerIds: [...providerIds].sort(), resourceIds: [...resourceIds].sort() });
    const booked = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00")));
    expect(booked.status).toBe(201);
    const booking = await json(booked);
    expect(providerIds).toContain(booking.providerId);
    expect([...booking.resourceIds].sort()).toEqual([...resourceIds].sort());
  });

  it("date overrides close a day and shorten another in the slot calendar, and booking agrees", async () => {
    const { apiKey } = await createAccount();
    const closed = dayOf(3);
    const short = dayOf(4);
    const service = await createService(apiKey, {
      dateOverrides: [
        { date: closed, intervals: [] },
        { date: short, intervals: [{ start: "09:00", end: "10:00" }] },
      ],
    });
    expect(service.dateOverrides).toHaveLength(2);
    const slots = (await availability(apiKey, service.id, at(3, "00:00"), at(5, "00:00"))).slots;
    expect(slots.map((s: { startTime: string }) => Date.parse(s.startTime))).toEqual([
      Date.parse(at(4, "09:00")),
      Date.parse(at(4, "09:30")),
    ]);
    const refused = await postBooking(apiKey, bookingBody(service.id, at(3, "10:00")));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("outside_working_hours");
    const alsoRefused = await postBooking(apiKey, bookingBody(service.id, at(4, "11:00")));
    expect((await problem(alsoRefused, 409, "slot_unavailable")).reason).toBe("outside_working_hours");
    expect((await postBooking(apiKey, bookingBody(service.id, at(4, "09:30")))).status).toBe(201);
    // A day without an override keeps the weekly hours.
    expect((await postBooking(apiKey, bookingBody(service.id, at(5, "15:00")))).status).toBe(201);
  });
});

describe("error", () => {
  const invalidBodies: [string, Record<string, unknown>, string][] = [
    ["an unknown IANA time zone", { timezone: "Mars/Olympus" }, "timezone"],
    ["a negative cancellation notice", { cancellationNoticeMinutes: -1 }, "cancellationNoticeMinutes"],
    ["a reschedule notice over a year", { rescheduleNoticeMinutes: 525_601 }, "rescheduleNoticeMinutes"],
    ["a fractional cancellation notice", { cancellationNoticeMinutes: 1.5 }, "cancellationNoticeMinutes"],
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
    ["limits.perDay 0", { limits: { perDay: 0 } }, "limits.perDay"],
    ["a negative limits.perDay", { limits: { perDay: -1 } }, "limits.perDay"],
    ["a fractional limits.perDay", { limits: { perDay: 2.5 } }, "limits.perDay"],
    ['limits.perDay "3"', { limits: { perDay: "3" } }, "limits.perDay"],
    ["limits.perDay 1,001", { limits: { perDay: 1001 } }, "limits.perDay"],
    ["a huge limits.perDay", { limits: { perDay: 1e308 } }, "limits.perDay"],
    ["limits.perWeek 0", { limits: { perWeek: 0 } }, "limits.perWeek"],
    ["limits.perWeek 10,001", { limits: { perWeek: 10_001 } }, "limits.perWeek"],
    ["a fractional limits.perWeek", { limits: { perWeek: 7.25 } }, "limits.perWeek"],
    ['limits.perWeek "many"', { limits: { perWeek: "many" } }, "limits.perWeek"],
    ["an unknown limit", { limits: { perMonth: 3 } }, "limits.perMonth"],
    ["limits that are not an object", { limits: 5 }, "limits"],
    ["maxActivePerCustomer 0", { maxActivePerCustomer: 0 }, "maxActivePerCustomer"],
    ["a negative maxActivePerCustomer", { maxActivePerCustomer: -2 }, "maxActivePerCustomer"],
    ["a fractional maxActivePerCustomer", { maxActivePerCustomer: 1.5 }, "maxActivePerCustomer"],
    ['maxActivePerCustomer "2"', { maxActivePerCustomer: "2" }, "maxActivePerCustomer"],
    ["maxActivePerCustomer 101", { maxActivePerCustomer: 101 }, "maxActivePerCustomer"],
    ["a huge maxActivePerCustomer", { maxActivePerCustomer: 2 ** 53 }, "maxActivePerCustomer"],
    ["an unknown assignment", { assignment: "fair" }, "assignment"],
  ];

  it.each(invalidBodies)("rejects %s with 422 naming the path and stores nothing", async (_, overrides, path) => {
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

  it("refuses an unknown, a foreign or a repeated provider id at its index, and more than 50; stores nothing", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const mine = await newProvider(owner.apiKey, "Mine");
    const foreign = await newProvider(other.apiKey, "Theirs");
    const cases: [string[], string][] = [
      [[mine, "prv_unknown"], "providerIds.1"],
      [[foreign], "providerIds.0"],
      [[mine, mine], "providerIds.1"],
    ];
    for (const [providerIds, path] of cases) {
      await validationError(
        await api("POST", "/services", { key: owner.apiKey, body: serviceBody({ providerIds }) }),
        path,
      );
    }
    await validationError(
      await api("POST", "/services", {
        key: owner.apiKey,
        body: serviceBody({ providerIds: Array.from({ length: 51 }, (_, i) => `prv_${i}`) }),
      }),
      "providerIds",
    );
    expect(await storedServices(owner.apiKey)).toBe(0);
  });

  it("refuses repeated override dates and bad override intervals", async () => {
    const { apiKey } = await createAccount();
    const dateOverrides = [
      { date: "2026-12-24", intervals: [] },
      { date: "2026-12-24", intervals: [] },
    ];
    await validationError(
      await api("POST", "/services", { key: apiKey, body: serviceBody({ dateOverrides }) }),
      "dateOverrides.1.date",
    );
    await validationError(
      await api("POST", "/services", {
        key: apiKey,
        body: serviceBody({ dateOverrides: [{ date: "2026-12-24", intervals: [{ start: "24:00", end: "24:00" }] }] }),
      }),
      "dateOverrides.0.intervals.0.start",
    );
    expect(await storedServices(apiKey)).toBe(0);
  });

  it("malformed JSON is 400 and a body that is not JSON is 415; neither stores anything", async () => {
    const { apiKey } = await createAccount();
    const malformed = await api("POST", "/services", {
      key: apiKey,
      rawBody: '{"name": "Consultation",',
      headers: { "Content-Type": "application/json" },
    });
    await problem(malformed, 400, "malformed_json");
    const form = await api("POST", "/services", {
      key: apiKey,
      rawBody: "name=Consultation&durationMinutes=30",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    await problem(form, 415, "unsupported_media_type");
    expect(await storedServices(apiKey)).toBe(0);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing stored", async () => {
    const { apiKey } = await createAccount();
    await expectUnauthorized(await api("POST", "/services", { body: serviceBody() }), false);
    expect(await storedServices(apiKey)).toBe(0);
  });

  it("a revoked key: 401, nothing stored", async () => {
    const { apiKey, businessId } = await createAccount();
    const revoked = await revokedKey(businessId);
    await expectUnauthorized(await api("POST", "/services", { key: revoked, body: serviceBody() }), true);
    expect(await storedServices(apiKey)).toBe(0);
  });

  it("another business's provider is refused exactly like an unknown one, naming nothing of that business", async () => {
    const owner = await createAccount("Owner Hair Ltd");
    const other = await createAccount("Other");
    const foreign = await newProvider(owner.apiKey, "Owner's stylist");
    const unknown = `prv_${"0".repeat(26)}`;
    const refusedForeign = await api("POST", "/services", {
      key: other.apiKey,
      body: serviceBody({ providerIds: [foreign] }),
    });
    const text = await refusedForeign.clone().text();
    const foreignEntry = await validationError(refusedForeign, "providerIds.0");
    const unknownEntry = await validationError(
      await api("POST", "/services", { key: other.apiKey, body: serviceBody({ providerIds: [unknown] }) }),
      "providerIds.0",
    );
    expect(foreignEntry.message.replace(foreign, "<id>")).toBe(unknownEntry.message.replace(unknown, "<id>"));
    for (const secret of [owner.businessId, "Owner Hair Ltd", "Owner's stylist"]) expect(text).not.toContain(secret);
    expect(await storedServices(other.apiKey)).toBe(0);
  });

  it("a refusal at a customer's limit tells nothing of their other bookings, and an e-mail in other case is the same customer", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { maxActivePerCustomer: 1 });
    const first = await json(
      await postBooking(apiKey, bookingBody(service.id, at(3, "09:00"), { customerEmail: "Grace@Example.com" })),
    );
    const res = await postBooking(
      apiKey,
      bookingBody(service.id, at(4, "09:00"), { customerEmail: "grace@example.COM", customerName: "Grace" }),
    );
    const text = await res.clone().text();
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe("limit_reached");
    for (const secret of [first.id, first.startTime, "Grace@Example.com", "Ada Lovelace"]) {
      expect(text).not.toContain(secret);
    }
  });
});
