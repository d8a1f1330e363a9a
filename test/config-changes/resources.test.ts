/**
 * Configuration changes around rooms and teams: a resource to fewer units, and a service that
 * starts needing a resource or a team while it has upcoming bookings (which claimed neither),
 * are refused with 409 `bookings_conflict`; a resource lowered while bookings race in never ends
 * with more sessions at one time than its units.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resourceCalendarOf } from "../../src/calendar/stubs";
import { at, book, bookingBody, postBooking } from "../bookings/support";
import { api, createAccount, createService, json, problem } from "../helpers";
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
