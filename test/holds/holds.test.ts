/**
 * Holds: a seat kept for a few minutes, turned into a booking without the seat ever being free,
 * released at once, or freed on time by the alarm with no request arriving.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, count, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { holds, idempotencyKeys } from "../../src/db/schema";
import { api, createAccount, createService, db, json, problem, validationError } from "../support/api";
import { at, bookingBody, calendarStub, plus, postBooking, slotAt, statusCounts } from "../support/bookings";
import { placeHold } from "../support/fixtures";

/** Books with a hold: only the customer's details, the rest comes from the hold. */
function bookHold(key: string, holdId: string, extra: Record<string, unknown> = {}) {
  return postBooking(key, {
    holdId,
    customerName: "Ada",
    customerEmail: `${crypto.randomUUID()}@example.com`,
    ...extra,
  });
}

/** Moves the calendar's clock past the hold's expiry, as if its time were up. */
async function expireNow(stub: ReturnType<typeof calendarStub>, holdId: string) {
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("UPDATE bookings SET expires_ms = 1 WHERE id = ?", holdId);
    state.storage.sql.exec(
      "UPDATE holds SET expires_ms = 1, record = json_set(record, '$.expiresAt', '1970-01-01T00:00:00.001Z') WHERE id = ?",
      holdId,
    );
  });
}

describe("happy", () => {
  it("a hold takes its seat, shows as held, and becomes a booking on the same seat", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const start = at(3, "10:00");
    const res = await placeHold(apiKey, service.id, start, { ttlSeconds: 120 });
    expect(res.status).toBe(201);
    const hold = await json(res);
    expect(res.headers.get("Location")).toBe(`/api/v1/holds/${hold.id}`);
    expect(hold).toMatchObject({ status: "HELD", serviceId: service.id, providerId: null });
    expect(Date.parse(hold.expiresAt) - Date.parse(hold.createdAt)).toBe(120_000);
    expect(await slotAt(apiKey, service.id, start)).toMatchObject({ booked: 0, held: 1, remaining: 0 });
    // Someone else cannot take the seat.
    expect((await postBooking(apiKey, bookingBody(service.id, start))).status).toBe(409);
    const booked = await bookHold(apiKey, hold.id);
    expect(booked.status).toBe(201);
    const booking = await json(booked);
    expect(booking.startTime).toBe(hold.startTime);
    expect(await slotAt(apiKey, service.id, start)).toMatchObject({ booked: 1, held: 0, remaining: 0 });
    const after = await json(await api("GET", `/holds/${hold.id}`, { key: apiKey }));
    expect(after).toMatchObject({ status: "CONSUMED", bookingId: booking.id });
  });

  it("DELETE frees the seat at once; the hold can no longer be booked", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const start = at(3, "11:00");
    const hold = await json(await placeHold(apiKey, service.id, start));
    expect((await api("DELETE", `/holds/${hold.id}`, { key: apiKey })).status).toBe(204);
    expect(await slotAt(apiKey, service.id, start)).toMatchObject({ held: 0, remaining: 1 });
    await problem(await bookHold(apiKey, hold.id), 409, "hold_expired");
    expect((await json(await api("GET", `/holds/${hold.id}`, { key: apiKey }))).status).toBe("RELEASED");
  });
});

describe("a hold as the longest row", () => {
  it("blocks a booking that starts inside it, even as the calendar's first row", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { durationMinutes: 60, slotIntervalMinutes: 30 });
    const start = at(3, "10:00");
    const hold = await api("POST", "/holds", {
      key: apiKey,
      body: { serviceId: service.id, startTime: start, endTime: plus(start, 60) },
    });
    expect(hold.status).toBe(201);
    const inside = plus(start, 30);
    expect(await slotAt(apiKey, service.id, inside)).toMatchObject({ held: 1, remaining: 0, bookable: false });
    const res = await postBooking(apiKey, bookingBody(service.id, inside, { endTime: plus(inside, 60) }));
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe("fully_booked");
  });
});

describe("expiry", () => {
  it("the alarm frees an expired hold's seat with no request arriving, and it is never booked after", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const start = at(3, "12:00");
    const hold = await json(await placeHold(apiKey, service.id, start, { ttlSeconds: 60 }));
    const stub = calendarStub(businessId, service.id);
    // The alarm is armed for the hold's expiry.
    const alarm = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm as number).toBeLessThanOrEqual(Date.parse(hold.expiresAt));
    await expireNow(stub, hold.id);
    // Before any alarm runs, the expired hold already refuses to become a booking.
    await problem(await bookHold(apiKey, hold.id), 409, "hold_expired");
    await runDurableObjectAlarm(stub);
    const seat = await runInDurableObject(stub, (_i, state) =>
      state.storage.sql.exec("SELECT count(*) AS n FROM bookings WHERE kind = 'hold'").one(),
    );
    expect(seat.n).toBe(0);
    expect((await json(await api("GET", `/holds/${hold.id}`, { key: apiKey }))).status).toBe("EXPIRED");
    expect(await slotAt(apiKey, service.id, start)).toMatchObject({ held: 0, remaining: 1 });
  });
});

describe("concurrency", () => {
  it("30 concurrent holds on a capacity-2 slot: exactly 2", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 2 });
    const start = at(4, "10:00");
    const responses = await Promise.all(Array.from({ length: 30 }, () => placeHold(apiKey, service.id, start)));
    expect(statusCounts(responses)).toEqual({ 201: 2, 409: 28 });
  });

  it("hold → booking under a storm of plain creates for the same seat: the holder always gets it", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const start = at(4, "11:00");
    const hold = await json(await placeHold(apiKey, service.id, start));
    const [mine, ...others] = await Promise.all([
      bookHold(apiKey, hold.id),
      ...Array.from({ length: 20 }, () => postBooking(apiKey, bookingBody(service.id, start))),
    ]);
    expect(mine?.status).toBe(201);
    expect(statusCounts(others)).toEqual({ 409: 20 });
  });

  it("a hold is consumed once: a second booking with it is a 409", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const hold = await json(await placeHold(apiKey, service.id, at(4, "12:00")));
    const results = await Promise.all([bookHold(apiKey, hold.id), bookHold(apiKey, hold.id)]);
    expect(statusCounts(results)).toEqual({ 201: 1, 409: 1 });
  });
});

describe("with providers", () => {
  it("a hold claims the person's time, which another service cannot take, and the booking keeps it", async () => {
    const { apiKey, businessId } = await createAccount();
    const day = [{ start: "09:00", end: "17:00" }];
    const weeklySchedule = { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day };
    const provider = (
      await json(
        await api("POST", "/providers", { key: apiKey, body: { name: "Ana", timezone: "UTC", weeklySchedule } }),
      )
    ).id;
    const cut = await createService(apiKey, { providerIds: [provider] });
    const colour = await createService(apiKey, { name: "Colour", providerIds: [provider] });
    const start = at(3, "10:00");
    const hold = await json(await placeHold(apiKey, cut.id, start));
    expect(hold.providerId).toBe(provider);
    const other = await postBooking(apiKey, bookingBody(colour.id, start, { providerId: provider }));
    expect((await problem(other, 409, "slot_unavailable")).reason).toBe("provider_busy");
    const booking = await json(await bookHold(apiKey, hold.id));
    expect(booking.providerId).toBe(provider);
    const claims = (await providerCalendarOf(env, businessId, provider).snapshot()).claims;
    expect(claims).toHaveLength(1);
    expect(claims[0]?.expiresAt).toBeNull();
  });

  it("when every person refuses the time, each is asked once and the hold is refused", async () => {
    const { apiKey } = await createAccount();
    const morning = [{ start: "09:00", end: "12:00" }];
    const weeklySchedule = {
      mon: morning,
      tue: morning,
      wed: morning,
      thu: morning,
      fri: morning,
      sat: morning,
      sun: morning,
    };
    const people = [];
    for (const name of ["Ana", "Bo", "Cy"]) {
      const res = await api("POST", "/providers", { key: apiKey, body: { name, timezone: "UTC", weeklySchedule } });
      people.push((await json(res)).id);
    }
    const service = await createService(apiKey, { providerIds: people });
    // The service is open at 15:00; nobody works then, so every person's calendar refuses.
    const refused = await problem(await placeHold(apiKey, service.id, at(3, "15:00")), 409, "slot_unavailable");
    expect(refused.reason).toBe("no_provider_available");
  });
});

describe("errors and security", () => {
  it("ttlSeconds outside 60–1800, unknown fields and conflicting booking fields are 422s", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await placeHold(apiKey, service.id, at(3, "10:00"), { ttlSeconds: 59 }), "ttlSeconds");
    await validationError(await placeHold(apiKey, service.id, at(3, "10:00"), { ttlSeconds: 1801 }), "ttlSeconds");
    await validationError(await placeHold(apiKey, service.id, at(3, "10:00"), { color: "red" }), "color");
    const hold = await json(await placeHold(apiKey, service.id, at(3, "10:00")));
    await validationError(await bookHold(apiKey, hold.id, { startTime: at(3, "11:00") }), "startTime");
    await validationError(await bookHold(apiKey, "hld_unknown"), "holdId");
  });

  it("at most 50 live holds per API key", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 60 });
    for (let i = 0; i < 50; i++) expect((await placeHold(apiKey, service.id, at(5, "10:00"))).status).toBe(201);
    await problem(await placeHold(apiKey, service.id, at(5, "10:00")), 409, "hold_limit_reached");
  });

  it("a conversion whose answer was lost is answered again under its Idempotency-Key, not refused", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const hold = await json(await placeHold(apiKey, service.id, at(3, "10:00")));
    const body = { holdId: hold.id, customerName: "Ada", customerEmail: "ada@example.com" };
    const first = await postBooking(apiKey, body, "convert-1");
    expect(first.status).toBe(201);
    const booking = await json(first);
    // The answer never reached the client and D1 kept no record of it (the request failed after
    // the calendar committed): only the calendar remembers the key.
    await db()
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.businessId, businessId), eq(idempotencyKeys.key, "convert-1")));
    const again = await postBooking(apiKey, body, "convert-1");
    expect(again.status).toBe(201);
    expect((await json(again)).id).toBe(booking.id);
  });

  it("60 concurrent holds from one key: exactly 50 succeed, the rest are 409 hold_limit_reached", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 100 });
    const answers = await Promise.all(Array.from({ length: 60 }, () => placeHold(apiKey, service.id, at(5, "11:00"))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(50);
    for (const refused of answers.filter((r) => r.status !== 201)) await problem(refused, 409, "hold_limit_reached");
    // Nothing beyond the bound is kept: 50 live rows in D1, 50 seats held in the calendar.
    const [live] = await db()
      .select({ n: count() })
      .from(holds)
      .where(and(eq(holds.businessId, businessId), isNull(holds.endedAt)));
    expect(live?.n).toBe(50);
    expect(await slotAt(apiKey, service.id, at(5, "11:00"))).toMatchObject({ held: 50 });
  });

  it("a hold the calendar refuses gives the key's place back", async () => {
    const { apiKey } = await createAccount();
    const roomy = await createService(apiKey, { capacity: 100 });
    const single = await createService(apiKey, { capacity: 1 });
    for (let i = 0; i < 48; i++) expect((await placeHold(apiKey, roomy.id, at(5, "10:00"))).status).toBe(201);
    expect((await placeHold(apiKey, single.id, at(5, "10:00"))).status).toBe(201);
    await problem(await placeHold(apiKey, single.id, at(5, "10:00")), 409, "slot_unavailable");
    // 49 live: the 50th is allowed, the 51st is not.
    expect((await placeHold(apiKey, roomy.id, at(5, "10:00"))).status).toBe(201);
    await problem(await placeHold(apiKey, roomy.id, at(5, "10:00")), 409, "hold_limit_reached");
  });

  it("another business's hold is a 404 everywhere and cannot be booked", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const service = await createService(owner.apiKey);
    const hold = await json(await placeHold(owner.apiKey, service.id, at(3, "10:00")));
    await problem(await api("GET", `/holds/${hold.id}`, { key: other.apiKey }), 404, "not_found");
    await problem(await api("DELETE", `/holds/${hold.id}`, { key: other.apiKey }), 404, "not_found");
    await validationError(await bookHold(other.apiKey, hold.id), "holdId");
    expect((await json(await api("GET", `/holds/${hold.id}`, { key: owner.apiKey }))).status).toBe("HELD");
  });
});

describe("reconciliation", () => {
  it("finds nothing to report while holds are placed, booked and released as usual", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 3 });
    const booked = await json(await placeHold(apiKey, service.id, at(3, "10:00")));
    await bookHold(apiKey, booked.id);
    const released = await json(await placeHold(apiKey, service.id, at(3, "10:00")));
    await api("DELETE", `/holds/${released.id}`, { key: apiKey });
    await placeHold(apiKey, service.id, at(3, "10:00"));
    const report = await reconcile(env, { businessId });
    expect(report.differences).toEqual([]);
    expect(report.consistent).toBe(true);
  });

  it("reports a seat kept for a hold D1 does not count, and a hold D1 counts that the calendar does not keep", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 2 });
    const orphan = await json(await placeHold(apiKey, service.id, at(3, "10:00")));
    const ghost = await json(await placeHold(apiKey, service.id, at(3, "11:00")));
    // One side loses each: D1 forgets the first; the calendar lets the second go, two minutes ago.
    await db().delete(holds).where(eq(holds.id, orphan.id));
    await calendarStub(businessId, service.id).releaseHold(ghost.id);
    const young = await reconcile(env, { businessId });
    expect(young.differences.map((d) => [d.kind, d.bookingId]).sort()).toEqual(
      [
        ["hold_missing_in_calendar", ghost.id],
        ["hold_missing_in_d1", orphan.id],
      ].sort(),
    );
    await db()
      .update(holds)
      .set({ createdAt: new Date(Date.now() - 120_000).toISOString() })
      .where(eq(holds.id, ghost.id));
    const report = await reconcile(env, { businessId });
    expect(report.consistent).toBe(false);
    expect(report.differences.find((d) => d.bookingId === ghost.id)?.young).toBe(false);
  });
});
