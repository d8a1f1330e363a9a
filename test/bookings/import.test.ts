import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { api, createAccount, createService, json, problem } from "../support/api";
import { at, bookingBody, calendarStub, d1Bookings, plus } from "../support/bookings";

/** POST /internal/services/{id}/import as an operator. */
function importBookings(serviceId: string, body: unknown, token: string | null = "test-admin-token") {
  return exports.default.fetch(
    new Request(`http://api.test/internal/services/${serviceId}/import`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

const draft = (startTime: string) => {
  const { serviceId: _serviceId, ...booking } = bookingBody("unused", startTime);
  return booking;
};

describe("happy", () => {
  it("imports appointments of a service with providers under the provider rules too", async () => {
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
    const start = at(2, "11:00");
    expect((await api("POST", "/bookings", { key: apiKey, body: bookingBody(colour.id, start) })).status).toBe(201);
    const res = await importBookings(cut.id, {
      bookings: [
        { ...draft(start), providerId: provider },
        { ...draft(at(2, "12:00")), providerId: provider },
      ],
    });
    expect(await json(res)).toEqual({ imported: 1, refused: [{ index: 0, reason: "provider_busy" }] });
    const stored = await d1Bookings(businessId, cut.id);
    expect(stored.map((b) => b.providerId)).toEqual([provider]);
    const foreign = await importBookings(cut.id, {
      bookings: [{ ...draft(at(2, "13:00")), providerId: "prv_nobody" }],
    });
    expect((await problem(foreign, 422, "validation_failed")).errors[0].path).toBe("bookings.0.providerId");
  });

  it("imports existing appointments under the same rules, refusing the ones that do not fit", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const res = await importBookings(service.id, {
      bookings: [draft(at(2, "10:00")), draft(at(2, "10:30")), draft(at(2, "10:00")), draft(at(2, "03:00"))],
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      imported: 2,
      refused: [
        { index: 2, reason: "fully_booked" },
        { index: 3, reason: "outside_working_hours" },
      ],
    });
    expect((await d1Bookings(businessId)).map((b) => b.startTime).sort()).toEqual([
      new Date(at(2, "10:00")).toISOString(),
      new Date(at(2, "10:30")).toISOString(),
    ]);
    // The calendar holds them: the slot is taken for new bookings too.
    const again = await api("POST", "/bookings", { key: apiKey, body: bookingBody(service.id, at(2, "10:00")) });
    await problem(again, 409, "slot_unavailable");
    expect(plus(at(2, "10:00"), 30)).toBe(draft(at(2, "10:00")).endTime);
  });
});

describe("write-behind after an import", () => {
  it("leaves nothing waiting: every booking and its event are in D1 when the import answers", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 200, slotIntervalMinutes: 30 });
    // More than two D1 batches (50 each) in one service, all at the same few times.
    const bookings = Array.from({ length: 130 }, (_, i) => draft(at(2 + (i % 3), "10:00")));
    expect(await json(await importBookings(service.id, { bookings }))).toEqual({ imported: 130, refused: [] });
    expect(await d1Bookings(businessId)).toHaveLength(130);
    const left = await runInDurableObject(calendarStub(businessId, service.id), (_i: ServiceCalendar, state) => ({
      outbox: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox").one().n,
      events: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM events WHERE stage = 'd1'").one().n,
    }));
    expect(left).toEqual({ outbox: 0, events: 0 });
  });
});

describe("errors and security", () => {
  it("needs the admin token, a known service and a valid body", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await problem(await importBookings(service.id, { bookings: [draft(at(2, "11:00"))] }, null), 401, "unauthorized");
    await problem(await importBookings(service.id, { bookings: [draft(at(2, "11:00"))] }, apiKey), 401, "unauthorized");
    await problem(await importBookings("svc_nope", { bookings: [draft(at(2, "11:00"))] }), 404, "not_found");
    await problem(await importBookings(service.id, { bookings: [] }), 422, "validation_failed");
    await problem(
      await importBookings(service.id, {
        bookings: [{ ...draft(at(2, "11:00")), startTime: "2026-01-01T10:00:00+01:00" }],
      }),
      422,
      "validation_failed",
    );
    expect((await json(await api("GET", "/bookings", { key: apiKey }))).pagination.total).toBe(0);
  });
});
