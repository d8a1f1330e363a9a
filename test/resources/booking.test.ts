/**
 * Booking rooms and teams through the HTTP API, with the real service, provider and resource
 * calendars: a booking gets every calendar it needs or none, and nothing is ever over its units
 * or double-booked, under concurrency.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { providerCalendarOf, resourceCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount, createService, json, problem, validationError } from "../support/api";
import { at, book, bookingBody, d1Bookings, dayOf, plus, postBooking, statusCounts } from "../support/bookings";
import { createResource, newProvider } from "../support/fixtures";

/** A business with a room of `quantity` units that two services (massage, facial) need. */
async function spa(quantity = 1) {
  const account = await createAccount("Spa");
  const room = (await createResource(account.apiKey, { quantity })).id as string;
  const massage = (await createService(account.apiKey, { name: "Massage", resourceIds: [room] })).id as string;
  const facial = (await createService(account.apiKey, { name: "Facial", resourceIds: [room] })).id as string;
  return { ...account, room, massage, facial };
}

/** The live claims a resource's calendar holds. */
const claimsOf = async (businessId: string, resourceId: string) =>
  (await resourceCalendarOf(env, businessId, resourceId).snapshot()).claims;

describe("happy", () => {
  it("a booking takes a unit of each resource: in the answer, in D1 and in the room's calendar", async () => {
    const s = await spa();
    const booking = await book(s.apiKey, bookingBody(s.massage, at(3, "10:00")));
    expect(booking).toMatchObject({ resourceIds: [s.room], providerIds: [], providerId: null });
    const [stored] = await d1Bookings(s.businessId, s.massage);
    expect(stored).toMatchObject({ resourceIds: [s.room], providerIds: [] });
    expect((await claimsOf(s.businessId, s.room)).map((c) => c.claimId)).toEqual([booking.id]);
    // Cancelling frees the unit for the other service.
    const busy = await postBooking(s.apiKey, bookingBody(s.facial, at(3, "10:00")));
    expect((await problem(busy, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    expect(await claimsOf(s.businessId, s.room)).toEqual([]);
    await book(s.apiKey, bookingBody(s.facial, at(3, "10:00")));
  });

  it("the seats of one group session share the unit", async () => {
    const account = await createAccount();
    const room = (await createResource(account.apiKey)).id as string;
    const yoga = (await createService(account.apiKey, { capacity: 3, resourceIds: [room] })).id as string;
    const start = at(3, "10:00");
    for (let i = 0; i < 3; i++) await book(account.apiKey, bookingBody(yoga, start));
    expect(await claimsOf(account.businessId, room)).toHaveLength(3);
  });

  it("a room held by a person's group session: automatic assignment passes over the others to that person", async () => {
    const account = await createAccount();
    const a = await newProvider(account.apiKey, "A");
    const b = await newProvider(account.apiKey, "B");
    const room = (await createResource(account.apiKey)).id as string;
    const yoga = await createService(account.apiKey, { capacity: 2, providerIds: [a, b], resourceIds: [room] });
    const start = at(3, "10:00");
    const first = await book(account.apiKey, bookingBody(yoga.id, start, { providerId: a }));
    // B has the fewer bookings that day, so B is tried first; the room refuses B's session but
    // names A's as one it would still take: A's second seat is booked, not a 409.
    const second = await book(account.apiKey, bookingBody(yoga.id, start));
    expect(second.providerId).toBe(a);
    expect((await claimsOf(account.businessId, room)).map((c) => c.claimId).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    expect((await providerCalendarOf(env, account.businessId, b).snapshot()).claims).toEqual([]);
  });

  it("a team booking claims every provider: providerIds lists them all, providerId is null", async () => {
    const account = await createAccount();
    const a = await newProvider(account.apiKey, "A");
    const b = await newProvider(account.apiKey, "B");
    const duo = await createService(account.apiKey, { providerIds: [a, b], providerMode: "all" });
    expect(duo.providerMode).toBe("all");
    const booking = await book(account.apiKey, bookingBody(duo.id, at(3, "10:00")));
    expect(booking).toMatchObject({ providerId: null, providerIds: [a, b].sort() });
    // Both people's lists show it.
    for (const id of [a, b]) {
      const list = await json(await api("GET", `/providers/${id}/bookings`, { key: account.apiKey }));
      expect(list.data.map((x: { id: string }) => x.id)).toEqual([booking.id]);
      const filtered = await json(await api("GET", `/bookings?providerId=${id}`, { key: account.apiKey }));
      expect(filtered.data.map((x: { id: string }) => x.id)).toEqual([booking.id]);
    }
  });

  it("the slot calendar shows a full room as not bookable, lists the resources, and filters by resourceId", async () => {
    const s = await spa();
    const start = at(3, "10:00");
    await book(s.apiKey, bookingBody(s.massage, start));
    const query = `from=${start}&to=${plus(start, 60)}`;
    const { slots } = await json(await api("GET", `/services/${s.facial}/availability?${query}`, { key: s.apiKey }));
    expect(slots[0]).toMatchObject({ bookable: false, resources: [] });
    expect(slots[1]).toMatchObject({ bookable: true, resources: [s.room] });
    const one = await api("GET", `/services/${s.facial}/availability?${query}&resourceId=${s.room}`, { key: s.apiKey });
    expect((await json(one)).slots[0]).toMatchObject({ bookable: false });
    const other = (await createResource(s.apiKey)).id;
    await validationError(
      await api("GET", `/services/${s.facial}/availability?${query}&resourceId=${other}`, { key: s.apiKey }),
      "resourceId",
    );
  });
});

describe("a room without hours of its own, with date overrides", () => {
  /** A room with no `weeklySchedule` and these overrides, and a service (09:00–17:00 UTC) that needs it. */
  async function roomWith(dateOverrides: unknown[]) {
    const account = await createAccount("Spa");
    const room = await createResource(account.apiKey, { dateOverrides });
    expect(room.weeklySchedule).toBeNull();
    const massage = (await createService(account.apiKey, { name: "Massage", resourceIds: [room.id] })).id as string;
    return { ...account, room: room.id as string, massage };
  }

  /** The slot of the service's calendar starting at `startTime`. */
  const slotOf = async (key: string, serviceId: string, startTime: string) => {
    const query = `from=${startTime}&to=${plus(startTime, 30)}`;
    const body = await json(await api("GET", `/services/${serviceId}/availability?${query}`, { key }));
    return body.slots[0];
  };

  it("a closed-day override ([]) refuses that day's bookings and holds with 409 resource_unavailable; the next day books", async () => {
    const s = await roomWith([{ date: dayOf(3), intervals: [] }]);
    const refused = await postBooking(s.apiKey, bookingBody(s.massage, at(3, "10:00")));
    const problemBody = await problem(refused, 409, "slot_unavailable");
    expect(problemBody).toMatchObject({
      reason: "resource_unavailable",
      detail: "The resource is closed at that time.",
    });
    const hold = await api("POST", "/holds", {
      key: s.apiKey,
      body: { serviceId: s.massage, startTime: at(3, "14:00"), endTime: at(3, "14:30") },
    });
    expect((await problem(hold, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
    expect(await d1Bookings(s.businessId, s.massage)).toEqual([]);
    // The next day the room is open whenever the service is.
    expect((await book(s.apiKey, bookingBody(s.massage, at(4, "10:00")))).resourceIds).toEqual([s.room]);
    // A move into the closed day is refused as a new booking would be.
    const booked = (await d1Bookings(s.businessId, s.massage))[0];
    const move = await api("POST", `/bookings/${booked?.id}/reschedule`, {
      key: s.apiKey,
      body: { startTime: at(3, "11:00"), endTime: at(3, "11:30") },
    });
    expect((await problem(move, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
  });

  it("the slot calendar shows the closed day's slots closed — no unit, nothing booked or held — and the next day's open", async () => {
    const s = await roomWith([{ date: dayOf(3), intervals: [] }]);
    expect(await slotOf(s.apiKey, s.massage, at(3, "10:00"))).toMatchObject({
      booked: 0,
      held: 0,
      remaining: 1,
      bookable: false,
      resources: [],
    });
    expect(await slotOf(s.apiKey, s.massage, at(4, "10:00"))).toMatchObject({ bookable: true, resources: [s.room] });
  });

  it("an override with intervals keeps the room to them that day: 10:00 books, 14:00 is closed", async () => {
    const s = await roomWith([{ date: dayOf(3), intervals: [{ start: "09:00", end: "12:00" }] }]);
    await book(s.apiKey, bookingBody(s.massage, at(3, "10:00")));
    const late = await postBooking(s.apiKey, bookingBody(s.massage, at(3, "14:00")));
    expect((await problem(late, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
    expect(await slotOf(s.apiKey, s.massage, at(3, "14:00"))).toMatchObject({
      booked: 0,
      bookable: false,
      resources: [],
    });
    // Another day the same hour is open.
    await book(s.apiKey, bookingBody(s.massage, at(4, "14:00")));
  });
});

describe("never over the units", () => {
  it("40 concurrent creates on two services sharing a one-unit room: exactly 1", async () => {
    const s = await spa(1);
    const start = at(4, "10:00");
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postBooking(s.apiKey, bookingBody(i % 2 ? s.massage : s.facial, start))),
    );
    expect(statusCounts(responses)).toEqual({ 201: 1, 409: 39 });
    expect(await claimsOf(s.businessId, s.room)).toHaveLength(1);
    const stored = [...(await d1Bookings(s.businessId, s.massage)), ...(await d1Bookings(s.businessId, s.facial))];
    expect(stored).toHaveLength(1);
  });

  it("40 concurrent creates on two services sharing a two-unit room: exactly 2", async () => {
    const s = await spa(2);
    const start = at(4, "11:00");
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postBooking(s.apiKey, bookingBody(i % 2 ? s.massage : s.facial, start))),
    );
    expect(statusCounts(responses)).toEqual({ 201: 2, 409: 38 });
    const booked = await Promise.all(responses.filter((r) => r.status === 201).map((r) => json(r)));
    // The two units went to the two services: one session each.
    expect(new Set(booked.map((b) => b.serviceId))).toEqual(new Set([s.massage, s.facial]));
    expect(await claimsOf(s.businessId, s.room)).toHaveLength(2);
  });

  it("a team service and a one-person service sharing a person: never double-booked", async () => {
    const account = await createAccount();
    const shared = await newProvider(account.apiKey, "Shared");
    const partner = await newProvider(account.apiKey, "Partner");
    const duo = (await createService(account.apiKey, { providerIds: [shared, partner], providerMode: "all" })).id;
    const solo = (await createService(account.apiKey, { providerIds: [shared] })).id;
    const start = at(4, "13:00");
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postBooking(account.apiKey, bookingBody(i % 2 ? duo : solo, start))),
    );
    expect(statusCounts(responses)).toEqual({ 201: 1, 409: 39 });
    const list = await json(await api("GET", `/providers/${shared}/bookings`, { key: account.apiKey }));
    expect(list.pagination.total).toBe(1);
  });

  it("two bookings needing the same two calendars, listed in opposite orders: one wins, the other is refused promptly", async () => {
    const account = await createAccount();
    const a = (await createResource(account.apiKey, { name: "A" })).id as string;
    const b = (await createResource(account.apiKey, { name: "B" })).id as string;
    const p = await newProvider(account.apiKey, "P");
    const q = await newProvider(account.apiKey, "Q");
    const one = (await createService(account.apiKey, { resourceIds: [a, b], providerIds: [p, q], providerMode: "all" }))
      .id;
    const two = (await createService(account.apiKey, { resourceIds: [b, a], providerIds: [q, p], providerMode: "all" }))
      .id;
    for (let round = 0; round < 5; round++) {
      const start = at(5, `${10 + round}:00`);
      const began = Date.now();
      const responses = await Promise.all([
        postBooking(account.apiKey, bookingBody(one, start)),
        postBooking(account.apiKey, bookingBody(two, start)),
      ]);
      expect(Date.now() - began).toBeLessThan(10_000);
      expect(statusCounts(responses)).toEqual({ 201: 1, 409: 1 });
      const refused = await json(responses.find((r) => r.status === 409) as Response);
      expect(["resource_unavailable", "provider_busy", "fully_booked"]).toContain(refused.reason);
    }
    expect(await claimsOf(account.businessId, a)).toHaveLength(5);
    expect(await claimsOf(account.businessId, b)).toHaveLength(5);
  });
});

describe("errors", () => {
  it("a service's resourceIds must be the business's resources, at most 5, unique", async () => {
    const account = await createAccount();
    const other = await createAccount();
    const foreign = (await createResource(other.apiKey)).id;
    await validationError(
      await api("POST", "/services", {
        key: account.apiKey,
        body: { ...(await baseService()), resourceIds: [foreign] },
      }),
      "resourceIds.0",
    );
    const many = Array.from({ length: 6 }, (_, i) => `res_${i}`);
    await validationError(
      await api("POST", "/services", { key: account.apiKey, body: { ...(await baseService()), resourceIds: many } }),
      "resourceIds",
    );
    const mine = (await createResource(account.apiKey)).id;
    await validationError(
      await api("POST", "/services", {
        key: account.apiKey,
        body: { ...(await baseService()), resourceIds: [mine, mine] },
      }),
      "resourceIds.1",
    );
  });
});

/** A valid service body (Mon–Sun 09:00–17:00 UTC, 30 minutes). */
async function baseService() {
  const { serviceBody } = await import("../support/api");
  return serviceBody();
}
