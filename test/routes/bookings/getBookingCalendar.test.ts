/** GET /bookings/{id}.ics: one booking as an iCalendar file, for the staff's calendar. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, problem, validationError } from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { eventsOf } from "../../support/feeds";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

async function booked() {
  const { apiKey, businessId } = await createAccount();
  const service = await createService(apiKey, { name: "Deep tissue massage" });
  const booking = await book(apiKey, bookingBody(service.id, at(2, "10:00"), { customerName: "Ada King Lovelace" }));
  return { apiKey, businessId, service, booking };
}

describe("happy", () => {
  it("answers the booking's VEVENT: its id, service and first name, UTC times; 304 to its ETag", async () => {
    const b = await booked();
    const res = await api("GET", `/bookings/${b.booking.id}.ics`, { key: b.apiKey });
    expect(res.headers.get("RateLimit-Policy")).toBeTruthy();
    const etag = res.headers.get("ETag") ?? "";
    const { events, text } = await eventsOf(res);
    expect(events).toEqual([
      {
        uid: b.booking.id,
        summary: "Deep tissue massage — Ada",
        start: b.booking.startTime,
        end: b.booking.endTime,
        status: "CONFIRMED",
      },
    ]);
    expect(text).not.toMatch(/Lovelace|@example\.com/);
    const again = await api("GET", `/bookings/${b.booking.id}.ics`, {
      key: b.apiKey,
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });

  it("a cancelled booking reads STATUS:CANCELLED, so a calendar app removes it", async () => {
    const b = await booked();
    expect((await api("POST", `/bookings/${b.booking.id}/cancel`, { key: b.apiKey })).status).toBe(200);
    const { events } = await eventsOf(await api("GET", `/bookings/${b.booking.id}.ics`, { key: b.apiKey }));
    expect(events.map((e) => e.status)).toEqual(["CANCELLED"]);
  });
});

describe("error", () => {
  it("answers 404 for an unknown booking and 422 for an over-long id; the JSON read is untouched", async () => {
    const b = await booked();
    await problem(
      await api("GET", `/bookings/${unknownIdLike(b.booking.id)}.ics`, { key: b.apiKey }),
      404,
      "not_found",
    );
    await validationError(await api("GET", `/bookings/${"b".repeat(65)}.ics`, { key: b.apiKey }), "id");
    await problem(await api("GET", "/bookings/%ZZ.ics", { key: b.apiKey }), 404, "not_found");
    const plain = await api("GET", `/bookings/${b.booking.id}`, { key: b.apiKey });
    expect(plain.headers.get("Content-Type")).toContain("application/json");
  });
});

describe("security", () => {
  it("needs a live key", async () => {
    const b = await booked();
    await expectUnauthorized(await api("GET", `/bookings/${b.booking.id}.ics`), false);
    await expectUnauthorized(
      await api("GET", `/bookings/${b.booking.id}.ics`, { key: await revokedKey(b.businessId) }),
      true,
    );
  });

  it("another business's booking is a 404 like an unknown one", async () => {
    const b = await booked();
    const intruder = await createAccount("Intruder");
    const unknownId = unknownIdLike(b.booking.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/bookings/${b.booking.id}.ics`, { key: intruder.apiKey }),
      b.booking.id,
      await api("GET", `/bookings/${unknownId}.ics`, { key: intruder.apiKey }),
      unknownId,
      ["Deep tissue massage", "Ada"],
    );
  });
});
