/**
 * GET /services/{id}/availability: the live slot calendar with seat counts, and whether each
 * slot can be booked now (seat left, active service, notice and horizon rules).
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, utc, validationError } from "../support/api";
import { allDay, at, availability, book, bookingBody, DAY_MS, dayOf, MINUTE_MS, type Slot } from "../support/bookings";

const get = (key: string, serviceId: string, query: string) =>
  api("GET", `/services/${serviceId}/availability${query}`, { key });

/** Start times (HH:MM UTC) of a list of slots. */
const startsOf = (slots: Slot[]) => slots.map((s) => s.startTime.slice(11, 16));

describe("happy", () => {
  it("slots for a day with capacity, booked, remaining and bookable", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 2 });
    await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    await book(apiKey, bookingBody(service.id, at(2, "11:00")));
    await book(apiKey, bookingBody(service.id, at(2, "11:00")));

    const from = `${dayOf(2)}T00:00:00Z`;
    const to = `${dayOf(3)}T00:00:00Z`;
    const body = await availability(apiKey, service.id, from, to);
    expect(Object.keys(body).sort()).toEqual(["from", "serviceId", "slots", "timezone", "to"]);
    expect(body).toMatchObject({ serviceId: service.id, timezone: "UTC", from: utc(from), to: utc(to) });
    expect(body.slots).toHaveLength(16);
    expect(startsOf(body.slots)).toEqual(
      Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`),
    );
    for (const slot of body.slots as Slot[]) {
      expect(Object.keys(slot).sort()).toEqual([
        "bookable",
        "booked",
        "capacity",
        "endTime",
        "held",
        "remaining",
        "startTime",
      ]);
      expect(Date.parse(slot.endTime) - Date.parse(slot.startTime)).toBe(30 * MINUTE_MS);
      expect(slot.capacity).toBe(2);
      expect(slot.remaining).toBe(slot.capacity - slot.booked);
      expect(slot.bookable).toBe(slot.remaining > 0);
    }
    const byStart = Object.fromEntries((body.slots as Slot[]).map((s) => [s.startTime.slice(11, 16), s]));
    expect(byStart["10:00"]).toMatchObject({ booked: 1, remaining: 1, bookable: true });
    expect(byStart["11:00"]).toMatchObject({ booked: 2, remaining: 0, bookable: false });
    expect(byStart["09:00"]).toMatchObject({ booked: 0, remaining: 2, bookable: true });
  });

  it("only slots starting in [from, to) are listed", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const body = await availability(apiKey, service.id, at(2, "10:00"), at(2, "11:00"));
    expect(startsOf(body.slots)).toEqual(["10:00", "10:30"]);
    const shifted = await availability(apiKey, service.id, at(2, "10:01"), at(2, "11:01"));
    expect(startsOf(shifted.slots)).toEqual(["10:30", "11:00"]);
  });

  it("past slots are listed but not bookable", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const body = await availability(apiKey, service.id, `${dayOf(-1)}T00:00:00Z`, `${dayOf(0)}T00:00:00Z`);
    expect(body.slots).toHaveLength(16);
    expect(body.slots.every((s: Slot) => !s.bookable && s.remaining === 1)).toBe(true);
  });

  it("around now: slots that already started are not bookable, later ones are", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay });
    const now = Date.now();
    const body = await availability(apiKey, service.id, utc(now - 3 * 60 * MINUTE_MS), utc(now + 3 * 60 * MINUTE_MS));
    expect(body.slots.length).toBeGreaterThanOrEqual(11);
    for (const slot of body.slots as Slot[]) {
      const start = Date.parse(slot.startTime);
      // Leave a minute of slack for the clock moving on during the request.
      if (start < now - MINUTE_MS) expect(slot.bookable, slot.startTime).toBe(false);
      if (start > now + 2 * MINUTE_MS) expect(slot.bookable, slot.startTime).toBe(true);
    }
  });

  it("slots inside minNoticeMinutes are not bookable", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay, minNoticeMinutes: 240 });
    const now = Date.now();
    const body = await availability(apiKey, service.id, utc(now), utc(now + 8 * 60 * MINUTE_MS));
    for (const slot of body.slots as Slot[]) {
      const start = Date.parse(slot.startTime);
      if (start < now + 239 * MINUTE_MS) expect(slot.bookable, slot.startTime).toBe(false);
      if (start > now + 242 * MINUTE_MS) expect(slot.bookable, slot.startTime).toBe(true);
    }
    expect(body.slots.some((s: Slot) => s.bookable)).toBe(true);
  });

  it("slots beyond maxAdvanceDays are listed but not bookable", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { maxAdvanceDays: 3 });
    const far = await availability(apiKey, service.id, `${dayOf(5)}T00:00:00Z`, `${dayOf(6)}T00:00:00Z`);
    expect(far.slots).toHaveLength(16);
    expect(far.slots.every((s: Slot) => !s.bookable && s.remaining === 1)).toBe(true);
    const near = await availability(apiKey, service.id, `${dayOf(2)}T00:00:00Z`, `${dayOf(3)}T00:00:00Z`);
    expect(near.slots.every((s: Slot) => s.bookable)).toBe(true);
  });

  it("a slot shown bookable can be booked, and then shows as taken", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const before = await availability(apiKey, service.id, at(2, "09:00"), at(2, "09:30"));
    const slot = before.slots[0] as Slot;
    expect(slot.bookable).toBe(true);
    await book(apiKey, bookingBody(service.id, slot.startTime, { endTime: slot.endTime }));
    const after = await availability(apiKey, service.id, at(2, "09:00"), at(2, "09:30"));
    expect(after.slots[0]).toMatchObject({ booked: 1, remaining: 0, bookable: false });
  });

  it("working hours are local to the service's time zone, DST included", async () => {
    const { apiKey } = await createAccount();
    const day = [{ start: "09:00", end: "10:00" }];
    const service = await createService(apiKey, {
      timezone: "Europe/Berlin",
      durationMinutes: 60,
      weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    });
    // Berlin switches to summer time on Sunday 2027-03-28 at 02:00.
    const body = await availability(apiKey, service.id, "2027-03-26T00:00:00Z", "2027-03-30T00:00:00Z");
    expect(body.timezone).toBe("Europe/Berlin");
    expect(body.slots.map((s: Slot) => s.startTime)).toEqual([
      "2027-03-26T08:00:00.000Z",
      "2027-03-27T08:00:00.000Z",
      "2027-03-28T07:00:00.000Z",
      "2027-03-29T07:00:00.000Z",
    ]);
  });

  it("without from and to: now until now + 7 days", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await get(apiKey, service.id, "");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(7 * DAY_MS);
    expect(Math.abs(Date.parse(body.from) - Date.now())).toBeLessThan(60_000);
    expect(body.slots.length).toBeGreaterThanOrEqual(6 * 16);
  });

  it("a range of exactly 31 days is allowed", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const from = `${dayOf(1)}T00:00:00Z`;
    const res = await get(apiKey, service.id, `?from=${from}&to=${utc(Date.parse(from) + 31 * DAY_MS)}`);
    expect(res.status).toBe(200);
    expect((await json(res)).slots).toHaveLength(31 * 16);
  });

  it("an inactive service lists its slots, none bookable", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { active: false } });
    const body = await availability(apiKey, service.id, `${dayOf(2)}T00:00:00Z`, `${dayOf(3)}T00:00:00Z`);
    expect(body.slots).toHaveLength(16);
    expect(body.slots.every((s: Slot) => s.bookable === false)).toBe(true);
    expect(body.slots.filter((s: Slot) => s.booked === 1).map((s: Slot) => s.startTime)).toEqual([utc(at(2, "10:00"))]);
    expect(body.slots.filter((s: Slot) => s.remaining === 1)).toHaveLength(15);
  });
});

describe("error", () => {
  const cases = [
    { name: "a range over 31 days", query: () => `?from=${dayOf(1)}T00:00:00Z&to=${dayOf(33)}T00:00:00Z`, path: "to" },
    { name: "to equal to from", query: () => `?from=${at(2, "10:00")}&to=${at(2, "10:00")}`, path: "to" },
    { name: "to before from", query: () => `?from=${at(2, "10:00")}&to=${at(1, "10:00")}`, path: "to" },
    { name: "an impossible date", query: () => "?from=2027-02-30T00:00:00Z&to=2027-03-02T00:00:00Z", path: "from" },
    { name: "a date that is no date", query: () => `?from=tomorrow&to=${at(3, "00:00")}`, path: "from" },
    { name: "a date with an offset", query: () => `?from=${dayOf(2)}T00:00:00%2B01:00`, path: "from" },
    { name: "a date without Z", query: () => `?from=${dayOf(2)}T00:00:00`, path: "from" },
    { name: "a date only", query: () => `?to=${dayOf(3)}`, path: "to" },
    { name: "an unknown parameter", query: () => "?date=2026-12-01", path: "date" },
  ];

  it.each(cases)("$name → 422 validation_failed", async ({ query, path }) => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await get(apiKey, service.id, query()), path);
  });

  it("unknown service → 404", async () => {
    const { apiKey } = await createAccount();
    await problem(await get(apiKey, "svc_01jd3k5v7q8r9s0t1u2v3w4x5y", ""), 404, "not_found");
  });
});

describe("bound: at most 2000 slots per call", () => {
  // One-minute appointments every minute around the clock: 1440 slots a day.
  const everyMinute = (key: string) =>
    createService(key, { durationMinutes: 1, slotIntervalMinutes: 1, weeklySchedule: allDay });

  it("exactly 2000 slots are listed; one more is a 422 on to that names the latest to that fits", async () => {
    const { apiKey } = await createAccount();
    const service = await everyMinute(apiKey);
    const from = `${dayOf(2)}T00:00:00Z`;
    const fits = new Date(Date.parse(from) + 2000 * MINUTE_MS).toISOString();

    const body = await availability(apiKey, service.id, from, fits);
    expect(body.slots).toHaveLength(2000);

    const res = await get(apiKey, service.id, `?from=${from}&to=${utc(Date.parse(fits) + MINUTE_MS)}`);
    const entry = await validationError(res, "to");
    expect(entry.message).toContain(fits);
  });

  it("31 days of one-minute slots are refused (not generated), and the suggested to works", async () => {
    const { apiKey } = await createAccount();
    const service = await everyMinute(apiKey);
    const from = `${dayOf(1)}T00:00:00Z`;
    const res = await get(apiKey, service.id, `?from=${from}&to=${dayOf(32)}T00:00:00Z`);
    const body = await problem(res, 422, "validation_failed");
    expect(body.detail).toMatch(/more than 2000 slots/);
    const suggested = /to of at most (\S+Z)/.exec(body.detail)?.[1] as string;
    expect((await availability(apiKey, service.id, from, suggested)).slots).toHaveLength(2000);
  });

  it("a long range with few slots is still listed whole", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey); // 16 slots a day
    const body = await availability(apiKey, service.id, `${dayOf(1)}T00:00:00Z`, `${dayOf(32)}T00:00:00Z`);
    expect(body.slots).toHaveLength(31 * 16);
  });
});

describe("security", () => {
  it("another business's service → 404, like an unknown id", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const service = await createService(a.apiKey);
    const foreign = await problem(await get(b.apiKey, service.id, ""), 404, "not_found");
    const unknown = await problem(await get(b.apiKey, "svc_01jd3k5v7q8r9s0t1u2v3w4x5y", ""), 404, "not_found");
    expect(foreign.title).toBe(unknown.title);
  });

  it("without an API key → 401", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await problem(await get("", service.id, ""), 401, "unauthorized");
  });

  it("one business's bookings never show in another business's calendar", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const serviceA = await createService(a.apiKey);
    const serviceB = await createService(b.apiKey);
    await book(a.apiKey, bookingBody(serviceA.id, at(2, "10:00")));
    const body = await availability(b.apiKey, serviceB.id, at(2, "10:00"), at(2, "10:30"));
    expect(body.slots).toEqual([expect.objectContaining({ booked: 0, remaining: 1, bookable: true })]);
  });
});
