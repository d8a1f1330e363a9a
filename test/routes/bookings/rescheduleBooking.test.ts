/**
 * POST /bookings/{id}/reschedule: move a booking to another time. (Moves under concurrency and
 * faults between the calendars are proven in test/bookings/reschedule.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, bookingState, plus, slotAt } from "../../support/bookings";
import { newProvider, salon } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

async function setup(serviceOverrides: Record<string, unknown> = {}) {
  const account = await createAccount("Owner Clinic");
  const service = await createService(account.apiKey, serviceOverrides);
  const booking = await book(account.apiKey, bookingBody(service.id, at(3, "10:00")));
  return { ...account, serviceId: service.id as string, booking };
}

const move = (
  key: string,
  id: string,
  startTime: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
) =>
  api("POST", `/bookings/${id}/reschedule`, {
    key,
    body: { startTime, endTime: plus(startTime, 30), ...extra },
    headers,
  });

describe("happy", () => {
  it("moves the booking: same id and status, new times and ETag; the old seat is free, the new one taken", async () => {
    const s = await setup();
    const res = await move(s.apiKey, s.booking.id, at(3, "14:00"));
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v2"');
    const moved = await json(res);
    expect(moved).toEqual({
      ...s.booking,
      startTime: new Date(at(3, "14:00")).toISOString(),
      endTime: new Date(at(3, "14:30")).toISOString(),
      updatedAt: expect.any(String),
    });
    expect(await json(await api("GET", `/bookings/${s.booking.id}`, { key: s.apiKey }))).toEqual(moved);
    expect(await slotAt(s.apiKey, s.serviceId, at(3, "10:00"))).toMatchObject({ booked: 0, remaining: 1 });
    expect(await slotAt(s.apiKey, s.serviceId, at(3, "14:00"))).toMatchObject({ booked: 1, remaining: 0 });
  });

  it("moves to another provider of the service with providerId", async () => {
    const s = await salon(2);
    const [first, second] = s.providerIds as [string, string];
    const booking = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: first }));
    const res = await move(s.apiKey, booking.id, at(3, "11:00"), { providerId: second });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: booking.id, providerId: second });
  });

  it("the same Idempotency-Key replays the move with Idempotent-Replayed and the booking's ETag", async () => {
    const s = await setup();
    const headers = { "Idempotency-Key": "move-once" };
    const first = await move(s.apiKey, s.booking.id, at(3, "14:00"), {}, headers);
    const again = await move(s.apiKey, s.booking.id, at(3, "14:00"), {}, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(again.clone())).toEqual(await json(first.clone()));
    expect(first.headers.get("ETag")).toBe('"v2"');
    expect(again.headers.get("ETag")).toBe('"v2"');
  });

  it("If-Match with the current ETag applies the move", async () => {
    const s = await setup();
    const res = await move(s.apiKey, s.booking.id, at(3, "12:00"), {}, { "If-Match": '"v1"' });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v2"');
  });
});

describe("error", () => {
  it("into a full slot: 409 slot_unavailable fully_booked, and the booking keeps its time", async () => {
    const s = await setup();
    await book(s.apiKey, bookingBody(s.serviceId, at(3, "15:00")));
    const before = await bookingState(s);
    const res = await move(s.apiKey, s.booking.id, at(3, "15:00"));
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe("fully_booked");
    expect(await bookingState(s)).toEqual(before);
  });

  it("outside working hours: 409 slot_unavailable outside_working_hours", async () => {
    const s = await setup();
    const res = await move(s.apiKey, s.booking.id, at(3, "20:00"));
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe("outside_working_hours");
  });

  it("a booking of a deactivated service cannot move to a new time: 422 service_inactive, nothing changes", async () => {
    const s = await setup();
    expect((await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { active: false } })).status).toBe(
      200,
    );
    const before = await bookingState(s);
    await problem(await move(s.apiKey, s.booking.id, at(3, "14:00")), 422, "service_inactive");
    expect(await bookingState(s)).toEqual(before);
  });

  it("a cancelled booking cannot move: 409 invalid_transition", async () => {
    const s = await setup();
    expect((await api("POST", `/bookings/${s.booking.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    const before = await bookingState(s);
    await problem(await move(s.apiKey, s.booking.id, at(3, "14:00")), 409, "invalid_transition");
    expect(await bookingState(s)).toEqual(before);
  });

  it("a stale If-Match is a 412; the booking keeps its time", async () => {
    const s = await setup();
    expect((await api("PATCH", `/bookings/${s.booking.id}`, { key: s.apiKey, body: { notes: "v2" } })).status).toBe(
      200,
    );
    const before = await bookingState(s);
    await problem(
      await move(s.apiKey, s.booking.id, at(3, "14:00"), {}, { "If-Match": '"v1"' }),
      412,
      "precondition_failed",
    );
    expect(await bookingState(s)).toEqual(before);
  });

  it.each([
    ["a duration other than the service's", { endTime: plus(at(3, "14:00"), 60) }, "endTime"],
    ["a start in the past", { startTime: at(-1, "14:00"), endTime: plus(at(-1, "14:00"), 30) }, "startTime"],
    ["a missing endTime", { endTime: undefined }, "endTime"],
    ["an unknown field", { serviceId: "svc_other" }, "serviceId"],
  ])("%s is a 422 naming the field; nothing changes", async (_, extra, path) => {
    const s = await setup();
    const before = await bookingState(s);
    await validationError(await move(s.apiKey, s.booking.id, at(3, "14:00"), extra), path);
    expect(await bookingState(s)).toEqual(before);
  });

  it("a providerId that does not perform the service is a 422 at providerId", async () => {
    const s = await salon(1);
    const outsider = await newProvider(s.apiKey, "Outsider");
    const booking = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00")));
    await validationError(await move(s.apiKey, booking.id, at(3, "11:00"), { providerId: outsider }), "providerId");
  });

  it("an unknown id is 404", async () => {
    const s = await setup();
    await problem(await move(s.apiKey, "bkg_unknown", at(3, "14:00")), 404, "not_found");
  });

  it("malformed JSON is 400, a body that is not JSON 415", async () => {
    const s = await setup();
    const path = `/bookings/${s.booking.id}/reschedule`;
    const body = JSON.stringify({ startTime: at(3, "14:00"), endTime: at(3, "14:30") });
    const jsonType = { "Content-Type": "application/json" };
    await problem(
      await api("POST", path, { key: s.apiKey, rawBody: body.slice(0, -1), headers: jsonType }),
      400,
      "malformed_json",
    );
    await problem(
      await api("POST", path, { key: s.apiKey, rawBody: body, headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing moves", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await expectUnauthorized(await move("", s.booking.id, at(3, "14:00")), false);
    expect(await bookingState(s)).toEqual(before);
  });

  it("a revoked key: 401, nothing moves", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await expectUnauthorized(await move(await revokedKey(s.businessId), s.booking.id, at(3, "14:00")), true);
    expect(await bookingState(s)).toEqual(before);
  });

  it("another business gets the 404 of an unknown id; the booking keeps its time", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const before = await bookingState(s);
    const unknownId = unknownIdLike(s.booking.id);
    await expectNotFoundLikeUnknown(
      await move(other.apiKey, s.booking.id, at(3, "14:00")),
      s.booking.id,
      await move(other.apiKey, unknownId, at(3, "14:00")),
      unknownId,
      ["Owner Clinic", s.booking.customerEmail, s.serviceId, s.businessId],
    );
    expect(await bookingState(s)).toEqual(before);
  });
});
