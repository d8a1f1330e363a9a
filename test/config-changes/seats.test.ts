/**
 * Fewer seats while bookings race in: a lower capacity is checked by the service's calendar and,
 * once it fits, commands decided against the old settings are refused until the change is
 * written, so no slot ends up with more bookings than its capacity.
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json } from "../support/api";
import { at, book, bookingBody, d1Bookings, postBooking, statusCounts } from "../support/bookings";

describe("lowering capacity under a storm of creates", () => {
  it("ends with no more bookings in the slot than the capacity the service ends with (5 rounds)", async () => {
    for (let round = 0; round < 5; round++) {
      const { apiKey, businessId } = await createAccount();
      const service = await createService(apiKey, { capacity: 3 });
      const start = at(3, "10:00");
      await book(apiKey, bookingBody(service.id, start));
      const creates = Array.from({ length: 20 }, () => postBooking(apiKey, bookingBody(service.id, start)));
      const lowering = api("PATCH", `/services/${service.id}`, { key: apiKey, body: { capacity: 1 } });
      const [patched, ...answers] = await Promise.all([lowering, ...creates]);
      expect([200, 409, 503]).toContain(patched.status);
      const final = (await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).capacity;
      const active = (await d1Bookings(businessId, service.id)).filter((b) => b.status === "CONFIRMED");
      expect(active.length, JSON.stringify(statusCounts(answers))).toBeLessThanOrEqual(final);
      expect(active.length).toBe((statusCounts(answers)[201] ?? 0) + 1);
    }
  });
});
