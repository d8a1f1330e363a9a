/**
 * The calendar serialises check-and-reserve: however many creates race for a slot, exactly
 * `capacity` win, D1 holds exactly those, and the live calendar agrees.
 */
import { describe, expect, it } from "vitest";
import { createAccount, createService, json, problem } from "../support/api";
import {
  at,
  book,
  bookingBody,
  calendarStub,
  d1Bookings,
  plus,
  postBooking,
  slotAt,
  statusCounts,
} from "../support/bookings";

/** Sends `n` creates at once for the same slot; returns the responses in order. */
async function race(key: string, n: number, body: (i: number) => unknown): Promise<Response[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => postBooking(key, body(i))));
}

/** Asserts every loser is a 409 slot_unavailable with `reason`. */
async function losersAre(responses: Response[], reason: string) {
  for (const res of responses.filter((r) => r.status !== 201)) {
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe(reason);
  }
}

describe("happy", () => {
  it("100 concurrent creates for one slot of a capacity-1 service: exactly one 201, 99 × 409 fully_booked", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const startTime = at(3, "10:00");

    const started = Date.now();
    const responses = await race(apiKey, 100, () => bookingBody(service.id, startTime));
    console.log(`100 racing creates (capacity 1): ${Date.now() - started} ms`);

    expect(statusCounts(responses)).toEqual({ 201: 1, 409: 99 });
    await losersAre(responses, "fully_booked");
    const winner = await json(responses.find((r) => r.status === 201) as Response);

    const rows = await d1Bookings(businessId, service.id);
    expect(rows.map((r) => r.id)).toEqual([winner.id]);
    expect(await slotAt(apiKey, service.id, startTime)).toMatchObject({
      capacity: 1,
      booked: 1,
      remaining: 0,
      bookable: false,
    });
    const snapshot = await calendarStub(businessId, service.id).snapshot();
    expect(snapshot.bookings.map((b) => b.id)).toEqual([winner.id]);
    expect(snapshot.counters.active).toBe(1);
    expect(snapshot.outbox).toEqual([]);
  });

  it("100 concurrent creates for one slot of a capacity-3 service: exactly three 201s", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 3 });
    const startTime = at(3, "11:00");

    const started = Date.now();
    const responses = await race(apiKey, 100, () => bookingBody(service.id, startTime));
    console.log(`100 racing creates (capacity 3): ${Date.now() - started} ms`);

    expect(statusCounts(responses)).toEqual({ 201: 3, 409: 97 });
    await losersAre(responses, "fully_booked");
    const winners = await Promise.all(responses.filter((r) => r.status === 201).map((r) => json(r)));

    const rows = await d1Bookings(businessId, service.id);
    expect(rows.map((r) => r.id).sort()).toEqual(winners.map((w) => w.id).sort());
    expect(new Set(rows.map((r) => r.customerId)).size).toBe(3);
    expect(await slotAt(apiKey, service.id, startTime)).toMatchObject({
      capacity: 3,
      booked: 3,
      remaining: 0,
      bookable: false,
    });
  });

  it("concurrent creates spread over 5 services (10 distinct slots each) all succeed", async () => {
    const { apiKey, businessId } = await createAccount();
    const services = await Promise.all(Array.from({ length: 5 }, () => createService(apiKey)));

    const started = Date.now();
    const responses = await Promise.all(
      services.flatMap((service) =>
        Array.from({ length: 10 }, (_, i) =>
          postBooking(apiKey, bookingBody(service.id, plus(at(3, "09:00"), 30 * i))),
        ),
      ),
    );
    console.log(`50 creates over 5 services: ${Date.now() - started} ms`);

    expect(statusCounts(responses)).toEqual({ 201: 50 });
    for (const service of services) {
      expect(await d1Bookings(businessId, service.id)).toHaveLength(10);
      const snapshot = await calendarStub(businessId, service.id).snapshot();
      expect(snapshot.counters.active).toBe(10);
      expect(snapshot.outbox).toEqual([]);
    }
  });

  it("one customer e-mail racing across 5 services ends as one customer in D1", async () => {
    const { apiKey, businessId } = await createAccount();
    const services = await Promise.all(Array.from({ length: 5 }, () => createService(apiKey)));
    const responses = await Promise.all(
      services.map((service) =>
        postBooking(apiKey, bookingBody(service.id, at(3, "10:00"), { customerEmail: "same@example.com" })),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 201: 5 });
    const rows = await d1Bookings(businessId);
    expect(new Set(rows.map((r) => r.customerId)).size).toBe(1);
    // The answers name the customer D1 ended up with.
    const answers = await Promise.all(responses.map((r) => json(r)));
    expect(answers.map((a) => a.customerId)).toEqual(rows.map(() => rows[0]?.customerId));
  });
});

describe("buffers and overlaps", () => {
  it("bufferAfterMinutes 15 on a 15-minute grid: 10:15 and 10:30 refused, 10:45 accepted", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, {
      durationMinutes: 30,
      slotIntervalMinutes: 15,
      bufferAfterMinutes: 15,
    });
    await book(apiKey, bookingBody(service.id, at(3, "10:00")));

    for (const hhmm of ["10:15", "10:30"]) {
      const res = await postBooking(apiKey, bookingBody(service.id, at(3, hhmm)));
      expect((await problem(res, 409, "slot_unavailable")).reason, hhmm).toBe("fully_booked");
    }
    // A 09:30 appointment's own buffer (10:00–10:15) would run into the booking.
    const early = await postBooking(apiKey, bookingBody(service.id, at(3, "09:30")));
    expect((await problem(early, 409, "slot_unavailable")).reason).toBe("fully_booked");

    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "10:45")))).status).toBe(201);
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "09:15")))).status).toBe(201);

    // 10:15 and 10:30 now overlap both 10:00–10:45 and 10:45–11:30 (buffers included); 11:30 is free again.
    for (const [hhmm, booked] of [
      ["10:15", 2],
      ["10:30", 2],
      ["11:30", 0],
    ] as const) {
      const remaining = Math.max(0, 1 - booked);
      expect(await slotAt(apiKey, service.id, at(3, hhmm)), hhmm).toMatchObject({
        booked,
        remaining,
        bookable: remaining > 0,
      });
    }
  });

  it("racing overlapping-but-different slots (10:00 and 10:15, capacity 1): exactly one wins", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { durationMinutes: 30, slotIntervalMinutes: 15 });
    const responses = await race(apiKey, 20, (i) => bookingBody(service.id, at(3, i % 2 === 0 ? "10:00" : "10:15")));
    expect(statusCounts(responses)).toEqual({ 201: 1, 409: 19 });
    await losersAre(responses, "fully_booked");
    expect(await d1Bookings(businessId, service.id)).toHaveLength(1);
  });

  it("racing adjacent slots (10:00 and 10:30, no buffer) do not block each other", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const responses = await race(apiKey, 20, (i) => bookingBody(service.id, at(3, i % 2 === 0 ? "10:00" : "10:30")));
    expect(statusCounts(responses)).toEqual({ 201: 2, 409: 18 });
    const rows = await d1Bookings(businessId, service.id);
    expect(rows.map((r) => r.startTime).sort()).toEqual(
      [at(3, "10:00"), at(3, "10:30")].map((t) => new Date(t).toISOString()),
    );
  });
});

describe("error", () => {
  it("racing creates for a slot outside working hours all get 409 outside_working_hours, nothing written", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const responses = await race(apiKey, 20, () => bookingBody(service.id, at(3, "07:00")));
    expect(statusCounts(responses)).toEqual({ 409: 20 });
    await losersAre(responses, "outside_working_hours");
    expect(await d1Bookings(businessId)).toEqual([]);
    expect((await calendarStub(businessId, service.id).snapshot()).bookings).toEqual([]);
  });
});

describe("security", () => {
  it("two businesses racing for the same wall-clock slot each get their own seat", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const serviceA = await createService(a.apiKey);
    const serviceB = await createService(b.apiKey);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? postBooking(a.apiKey, bookingBody(serviceA.id, at(3, "10:00")))
          : postBooking(b.apiKey, bookingBody(serviceB.id, at(3, "10:00"))),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 201: 2, 409: 18 });
    expect(await d1Bookings(a.businessId)).toHaveLength(1);
    expect(await d1Bookings(b.businessId)).toHaveLength(1);
  });
});
