/**
 * What an import of 400 bookings costs in calls between calendars: the service's calendar books
 * each under the rules of a new booking, claiming its person's and its room's time. Counted by the
 * calendars themselves (test/support/worker.ts), never timed (docs/performance.md, "Imports:
 * calls between calendars").
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAccount, createService, json } from "../support/api";
import { allDay, bookingBody, d1Bookings, plus } from "../support/bookings";
import { takeCalls } from "../support/faults";
import { createResource, newProvider } from "../support/fixtures";

const importBookings = (serviceId: string, bookings: unknown[]) =>
  exports.default.fetch(
    new Request(`http://api.test/internal/services/${serviceId}/import`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer test-admin-token" },
      body: JSON.stringify({ bookings }),
    }),
  );

describe("an import of 400 bookings of a service with a person and a room", () => {
  it("books all 400 with one claim call per booking to each of the person's and the room's calendars, no more", async () => {
    const { apiKey, businessId } = await createAccount("Importer");
    const person = await newProvider(apiKey, "Importer person", { weeklySchedule: allDay });
    const room = (await createResource(apiKey, { name: "Importer room", weeklySchedule: allDay })).id as string;
    const service = await createService(apiKey, {
      providerIds: [person],
      resourceIds: [room],
      weeklySchedule: allDay,
      maxAdvanceDays: 730,
    });
    const first = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 5, 0, 0)).toISOString();
    const bookings = Array.from({ length: 400 }, (_, i) => {
      const { serviceId: _s, ...booking } = bookingBody(service.id, plus(first, 30 * i));
      return booking;
    });
    const calendars = [
      { calendar: "service" as const, id: service.id as string },
      { calendar: "provider" as const, id: person },
      { calendar: "resource" as const, id: room },
    ];
    await takeCalls(businessId, calendars);
    // Two calls of 200: a body is at most 64 KiB.
    for (const part of [bookings.slice(0, 200), bookings.slice(200)]) {
      expect(await json(await importBookings(service.id, part))).toEqual({ imported: 200, refused: [] });
    }
    const calls = await takeCalls(businessId, calendars);
    // Each booking claims its person and its room in one call each (its claim confirmed in it):
    // 800 in all. Not yet one call per calendar for many bookings, as a series' claims are.
    expect(Object.values(calls)).toEqual([{}, { claimEach: 400 }, { claimEach: 400 }]);
    expect(await d1Bookings(businessId, service.id)).toHaveLength(400);
  });
});
