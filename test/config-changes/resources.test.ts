/**
 * Configuration changes around rooms and teams: a resource to fewer units, and a service that
 * starts needing a resource or a team while it has upcoming bookings (which claimed neither),
 * are refused with 409 `bookings_conflict`; a resource lowered while bookings race in never ends
 * with more sessions at one time than its units.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resourceCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount, createService, json, problem } from "../support/api";
import { at, book, bookingBody, dayOf, plus, postBooking } from "../support/bookings";
import { createResource, newProvider } from "../support/fixtures";

describe("a service that starts claiming more", () => {
  it("adding a resource to a service with upcoming bookings is a 409 saying how many; without them it applies", async () => {
    const { apiKey } = await createAccount();
    const room = (await createResource(apiKey)).id;
    const busy = await createService(apiKey, { name: "Busy" });
    const a = await book(apiKey, bookingBody(busy.id, at(3, "10:00")));
    const b = await book(apiKey, bookingBody(busy.id, at(4, "10:00")));
    const refused = await api("PATCH", `/services/${busy.id}`, { key: apiKey, body: { resourceIds: [room] } });
    const body = await problem(refused, 409, "bookings_conflict");
    expect(body.upcomingBookings).toBe(2);
    expect(body.detail).toContain("2 upcoming bookings");
    expect(body.conflicts.flatMap((c: { bookingIds: string[] }) => c.bookingIds).sort()).toEqual([a.id, b.id].sort());
    const after = await json(await api("GET", `/services/${busy.id}`, { key: apiKey }));
    expect(after.resourceIds).toEqual([]);

    const idle = await createService(apiKey, { name: "Idle" });
    const patched = await api("PATCH", `/services/${idle.id}`, { key: apiKey, body: { resourceIds: [room] } });
    expect(patched.status).toBe(200);
    expect((await json(patched)).resourceIds).toEqual([room]);
    // From then on its bookings take the room.
    expect((await book(apiKey, bookingBody(idle.id, at(3, "12:00")))).resourceIds).toEqual([room]);
    // Removing it again is always allowed: bookings keep the unit they took.
    const removed = await api("PATCH", `/services/${idle.id}`, { key: apiKey, body: { resourceIds: [] } });
    expect(removed.status).toBe(200);
  });

  it("switching providerMode while bookings are upcoming is a 409", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const b = await newProvider(apiKey, "B");
    const service = await createService(apiKey, { providerIds: [a, b] });
    await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    const res = await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { providerMode: "all" } });
    await problem(res, 409, "bookings_conflict");
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).providerMode).toBe("one");
  });
});

describe("a room's own changes over its bookings", () => {
  it("a closed day added to a room without hours keeps that day's bookings; new ones that day are refused", async () => {
    const { apiKey, businessId } = await createAccount();
    const room = (await createResource(apiKey)).id as string;
    const service = await createService(apiKey, { resourceIds: [room] });
    const kept = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    const patched = await api("PATCH", `/resources/${room}`, {
      key: apiKey,
      body: { dateOverrides: [{ date: dayOf(3), intervals: [] }] },
    });
    expect(patched.status).toBe(200);
    expect((await json(patched)).weeklySchedule).toBeNull();
    // As with new hours: the booking keeps its unit, its status and its place in the room's list.
    expect(await json(await api("GET", `/bookings/${kept.id}`, { key: apiKey }))).toMatchObject({
      status: "CONFIRMED",
      resourceIds: [room],
    });
    const listed = await json(await api("GET", `/resources/${room}/bookings`, { key: apiKey }));
    expect(listed.data.map((b: { id: string }) => b.id)).toEqual([kept.id]);
    expect((await resourceCalendarOf(env, businessId, room).snapshot()).claims.map((c) => c.claimId)).toEqual([
      kept.id,
    ]);
    const query = `from=${at(3, "10:00")}&to=${plus(at(3, "10:00"), 30)}`;
    const [slot] = (await json(await api("GET", `/services/${service.id}/availability?${query}`, { key: apiKey })))
      .slots;
    expect(slot).toMatchObject({ booked: 1, bookable: false, resources: [] });
    // New bookings that day are refused, also once the kept one is cancelled.
    const refused = await postBooking(apiKey, bookingBody(service.id, at(3, "11:00")));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
    expect((await api("POST", `/bookings/${kept.id}/cancel`, { key: apiKey })).status).toBe(200);
    const again = await postBooking(apiKey, bookingBody(service.id, at(3, "10:00")));
    expect((await problem(again, 409, "slot_unavailable")).reason).toBe("resource_unavailable");
  });
});

describe("a resource lowered under a storm of creates", () => {
  it("ends with no more sessions at one time than the units it ends with (3 rounds)", async () => {
    for (let round = 0; round < 3; round++) {
      const { apiKey, businessId } = await createAccount();
      const room = (await createResource(apiKey, { quantity: 3 })).id;
      const services: string[] = [];
      for (const name of ["A", "B", "C", "D"]) {
        services.push((await createService(apiKey, { name, resourceIds: [room] })).id);
      }
      const start = at(3, "10:00");
      await book(apiKey, bookingBody(services[0] as string, start));
      const creates = Array.from({ length: 12 }, (_, i) =>
        postBooking(apiKey, bookingBody(services[(i % 3) + 1] as string, start)),
      );
      const lowering = api("PATCH", `/resources/${room}`, { key: apiKey, body: { quantity: 1 } });
      const [patched] = await Promise.all([lowering, ...creates]);
      expect([200, 409, 503]).toContain(patched.status);
      const final = (await json(await api("GET", `/resources/${room}`, { key: apiKey }))).quantity;
      const { claims } = await resourceCalendarOf(env, businessId, room).snapshot();
      expect(new Set(claims.map((c) => c.session)).size).toBeLessThanOrEqual(final);
    }
  });
});
