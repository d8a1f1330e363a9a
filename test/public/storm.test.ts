/**
 * Storms on a booking page: many visitors after one seat, and one visitor's burst of holds. The
 * calendar decides the seat in one transaction; the per-address bound is counted and written in
 * one D1 statement. Neither a burst nor the moment between a hold and its booking lets a second
 * booking in.
 */
import { describe, expect, it } from "vitest";
import { json } from "../support/api";
import { at, bookingBody, d1Bookings, plus, postBooking, slotAt, statusCounts } from "../support/bookings";
import { pageBusiness, publicBooking, publicHold } from "../support/public";

describe("storms on a booking page", () => {
  it("30 visitors hold and book one seat at once, while 10 API calls book it too: exactly one booking", async () => {
    const f = await pageBusiness();
    const start = at(5, "10:00");
    const visitor = async (i: number) => {
      const held = await publicHold(f.slug, f.serviceId, start, `192.0.2.${i + 1}`);
      if (held.status !== 201) return held;
      return publicBooking(f.slug, await json(held), {}, `192.0.2.${i + 1}`);
    };
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => visitor(i)),
      ...Array.from({ length: 10 }, () => postBooking(f.apiKey, bookingBody(f.serviceId, start))),
    ]);
    const counts = statusCounts(answers);
    expect(counts[201]).toBe(1);
    expect(counts[409]).toBe(39);
    expect(Object.keys(counts).sort()).toEqual(["201", "409"]);
    const rows = await d1Bookings(f.businessId, f.serviceId);
    expect(rows.filter((b) => b.status !== "CANCELLED")).toHaveLength(1);
    expect(await slotAt(f.apiKey, f.serviceId, start)).toMatchObject({
      booked: 1,
      held: 0,
      remaining: 0,
      bookable: false,
    });
  });

  it("30 holds at once from one address on one service: exactly 3 are placed, and only 3 seats are kept", async () => {
    const f = await pageBusiness();
    const times = Array.from({ length: 30 }, (_, i) => plus(at(6, "00:00"), 30 * i));
    const answers = await Promise.all(times.map((time) => publicHold(f.slug, f.serviceId, time, "192.0.2.200")));
    const counts = statusCounts(answers);
    expect(counts).toEqual({ 201: 3, 409: 27 });
    for (const res of answers.filter((r) => r.status === 409))
      expect((await json(res)).code).toBe("hold_limit_reached");
    const slots = await Promise.all(times.map((time) => slotAt(f.apiKey, f.serviceId, time)));
    expect(slots.filter((slot) => slot?.held === 1)).toHaveLength(3);
    // Another address is not held back by this one.
    expect((await publicHold(f.slug, f.serviceId, plus(at(6, "00:00"), 30 * 40), "192.0.2.201")).status).toBe(201);
  });
});
