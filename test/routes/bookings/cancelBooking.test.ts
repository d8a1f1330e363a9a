/** POST /bookings/{id}/cancel: frees the slot at once; the body (a reason) is optional. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody, bookingState, postBooking, slotAt } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

async function setup() {
  const account = await createAccount("Owner Clinic");
  const service = await createService(account.apiKey);
  const booking = await book(account.apiKey, bookingBody(service.id, at(2, "10:00")));
  return { ...account, serviceId: service.id as string, booking };
}

const cancel = (
  key: string,
  id: string,
  options: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
) => api("POST", `/bookings/${id}/cancel`, { key, ...options });

describe("happy", () => {
  it("200 with the cancelled booking and its reason; the seat books again at once", async () => {
    const s = await setup();
    const res = await cancel(s.apiKey, s.booking.id, { body: { reason: "Customer is ill." } });
    expect(res.status).toBe(200);
    const cancelled = await json(res);
    expect(cancelled).toEqual({
      ...s.booking,
      status: "CANCELLED",
      cancellationReason: "Customer is ill.",
      manageUrl: null,
      cancelledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    expect(await json(await api("GET", `/bookings/${s.booking.id}`, { key: s.apiKey }))).toEqual(cancelled);
    expect(await slotAt(s.apiKey, s.serviceId, at(2, "10:00"))).toMatchObject({ booked: 0, remaining: 1 });
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")))).status).toBe(201);
  });

  it.each([
    ["no body at all", {}],
    ["an empty body sent as JSON", { rawBody: "", headers: { "Content-Type": "application/json" } }],
    ["{}", { body: {} }],
  ])("cancels without a reason given %s", async (_, options) => {
    const s = await setup();
    const res = await cancel(s.apiKey, s.booking.id, options);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "CANCELLED", cancellationReason: null });
  });

  it("the same Idempotency-Key replays the first answer with Idempotent-Replayed", async () => {
    const s = await setup();
    const headers = { "Idempotency-Key": "cancel-once" };
    const first = await cancel(s.apiKey, s.booking.id, { body: { reason: "ill" }, headers });
    const again = await cancel(s.apiKey, s.booking.id, { body: { reason: "ill" }, headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
  });
});

describe("error", () => {
  it("cancelling a booking that is no longer PENDING or CONFIRMED is a 409 invalid_transition; nothing changes", async () => {
    const s = await setup();
    expect((await cancel(s.apiKey, s.booking.id, { body: { reason: "first" } })).status).toBe(200);
    const before = await bookingState(s);
    await problem(await cancel(s.apiKey, s.booking.id, { body: { reason: "second" } }), 409, "invalid_transition");
    expect(await bookingState(s)).toEqual(before);
  });

  it.each([
    ["a blank reason", { reason: "   " }, "reason"],
    ["a reason over 500 characters", { reason: "x".repeat(501) }, "reason"],
    ["an unknown field", { status: "CANCELLED" }, "status"],
  ])("%s is a 422 naming the field; nothing changes", async (_, body, path) => {
    const s = await setup();
    const before = await bookingState(s);
    await validationError(await cancel(s.apiKey, s.booking.id, { body }), path);
    expect(await bookingState(s)).toEqual(before);
  });

  it("an unknown id is 404, an id longer than 64 characters 422", async () => {
    const s = await setup();
    await problem(await cancel(s.apiKey, "bkg_unknown"), 404, "not_found");
    await validationError(await cancel(s.apiKey, `bkg_${"x".repeat(61)}`), "id");
  });

  it("malformed JSON is 400, a body that is not JSON 415; nothing changes", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await problem(
      await cancel(s.apiKey, s.booking.id, { rawBody: '{"reason":', headers: { "Content-Type": "application/json" } }),
      400,
      "malformed_json",
    );
    await problem(
      await cancel(s.apiKey, s.booking.id, { rawBody: "reason=ill", headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    expect(await bookingState(s)).toEqual(before);
  });

  it("an Idempotency-Key used for another booking's cancel is a 422 idempotency_key_reused", async () => {
    const s = await setup();
    const two = await book(s.apiKey, bookingBody(s.serviceId, at(2, "11:00")));
    const headers = { "Idempotency-Key": "cancel-key" };
    expect((await cancel(s.apiKey, s.booking.id, { headers })).status).toBe(200);
    await problem(await cancel(s.apiKey, two.id, { headers }), 422, "idempotency_key_reused");
    expect((await json(await api("GET", `/bookings/${two.id}`, { key: s.apiKey }))).status).toBe("CONFIRMED");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing changes", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await expectUnauthorized(await cancel("", s.booking.id), false);
    expect(await bookingState(s)).toEqual(before);
  });

  it("a revoked key: 401, nothing changes", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await expectUnauthorized(await cancel(await revokedKey(s.businessId), s.booking.id), true);
    expect(await bookingState(s)).toEqual(before);
  });

  it("another business gets the 404 of an unknown id; the booking keeps its seat", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const before = await bookingState(s);
    const unknownId = unknownIdLike(s.booking.id);
    await expectNotFoundLikeUnknown(
      await cancel(other.apiKey, s.booking.id),
      s.booking.id,
      await cancel(other.apiKey, unknownId),
      unknownId,
      ["Owner Clinic", s.booking.customerEmail, s.serviceId, s.businessId],
    );
    expect(await bookingState(s)).toEqual(before);
    expect(await slotAt(s.apiKey, s.serviceId, at(2, "10:00"))).toMatchObject({ booked: 1, remaining: 0 });
  });
});
