/**
 * PATCH /bookings/{id}: change a booking's status or notes. (Every transition of the life cycle
 * is walked in test/bookings/lifecycle.test.ts; If-Match races in test/http/conditional.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { appointmentStarted, at, book, bookingBody, bookingState, slotAt } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

async function setup(serviceOverrides: Record<string, unknown> = {}) {
  const account = await createAccount("Owner Clinic");
  const service = await createService(account.apiKey, serviceOverrides);
  const booking = await book(account.apiKey, bookingBody(service.id, at(2, "10:00"), { notes: "First visit." }));
  return { ...account, serviceId: service.id as string, booking };
}

const patch = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", `/bookings/${id}`, { key, body, headers });

describe("happy", () => {
  it("cancels with a reason: the new state, the next version as ETag, and the seat free at once", async () => {
    const s = await setup();
    const res = await patch(s.apiKey, s.booking.id, { status: "CANCELLED", cancellationReason: "Customer is ill." });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v2"');
    const cancelled = await json(res);
    expect(cancelled).toMatchObject({
      id: s.booking.id,
      status: "CANCELLED",
      cancellationReason: "Customer is ill.",
      cancelledAt: expect.stringMatching(/Z$/),
      notes: "First visit.",
    });
    expect(await json(await api("GET", `/bookings/${s.booking.id}`, { key: s.apiKey }))).toEqual(cancelled);
    expect(await slotAt(s.apiKey, s.serviceId, at(2, "10:00"))).toMatchObject({ booked: 0, remaining: 1 });
  });

  it("changes only the notes, null clears them; the status stays", async () => {
    const s = await setup();
    const changed = await json(await patch(s.apiKey, s.booking.id, { notes: "Bring the X-rays." }));
    expect(changed).toEqual({ ...s.booking, notes: "Bring the X-rays.", updatedAt: expect.any(String) });
    const cleared = await json(await patch(s.apiKey, s.booking.id, { notes: null }));
    expect(cleared).toMatchObject({ notes: null, status: "CONFIRMED" });
  });

  it("PENDING → CONFIRMED, and CONFIRMED → COMPLETED once the appointment has started", async () => {
    const s = await setup({ requiresConfirmation: true });
    expect(s.booking.status).toBe("PENDING");
    expect((await json(await patch(s.apiKey, s.booking.id, { status: "CONFIRMED" }))).status).toBe("CONFIRMED");
    await appointmentStarted(s.businessId, s.serviceId, s.booking.id);
    expect((await json(await patch(s.apiKey, s.booking.id, { status: "COMPLETED" }))).status).toBe("COMPLETED");
  });

  it("If-Match with the current ETag applies the change", async () => {
    const s = await setup();
    const res = await patch(s.apiKey, s.booking.id, { notes: "Checked." }, { "If-Match": '"v1"' });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v2"');
  });
});

describe("error", () => {
  it.each([
    ["an empty body", {}, "(root)"],
    ["cancellationReason without status CANCELLED", { notes: "x", cancellationReason: "No." }, "cancellationReason"],
    ["an unknown status", { status: "DONE" }, "status"],
    ["an unknown field", { startTime: "2030-01-01T10:00:00Z" }, "startTime"],
  ])("%s is a 422 naming the field; nothing changes", async (_, body, path) => {
    const s = await setup();
    const before = await bookingState(s);
    await validationError(await patch(s.apiKey, s.booking.id, body), path);
    expect(await bookingState(s)).toEqual(before);
  });

  it("a transition the life cycle does not allow, or to the status it has, is a 409 invalid_transition", async () => {
    const s = await setup();
    const before = await bookingState(s);
    for (const status of ["PENDING", "CONFIRMED"]) {
      await problem(await patch(s.apiKey, s.booking.id, { status }), 409, "invalid_transition");
    }
    expect(await bookingState(s)).toEqual(before);
  });

  it("COMPLETED and NO_SHOW before the appointment's start are a 409 invalid_transition", async () => {
    const s = await setup();
    for (const status of ["COMPLETED", "NO_SHOW"]) {
      await problem(await patch(s.apiKey, s.booking.id, { status }), 409, "invalid_transition");
    }
    expect(await slotAt(s.apiKey, s.serviceId, at(2, "10:00"))).toMatchObject({ booked: 1, remaining: 0 });
  });

  it("a stale If-Match is a 412; nothing changes", async () => {
    const s = await setup();
    expect((await patch(s.apiKey, s.booking.id, { notes: "Second." })).status).toBe(200);
    const before = await bookingState(s);
    const stale = await patch(s.apiKey, s.booking.id, { status: "CANCELLED" }, { "If-Match": '"v1"' });
    await problem(stale, 412, "precondition_failed");
    expect(stale.headers.get("ETag")).toBe('"v2"');
    expect(await bookingState(s)).toEqual(before);
  });

  it("an unknown id is 404", async () => {
    const s = await setup();
    await problem(await patch(s.apiKey, "bkg_unknown", { notes: "x" }), 404, "not_found");
  });

  it("malformed JSON is 400, a body that is not JSON 415; nothing changes", async () => {
    const s = await setup();
    const before = await bookingState(s);
    const path = `/bookings/${s.booking.id}`;
    const jsonType = { "Content-Type": "application/json" };
    await problem(
      await api("PATCH", path, { key: s.apiKey, rawBody: '{"notes":', headers: jsonType }),
      400,
      "malformed_json",
    );
    await problem(
      await api("PATCH", path, { key: s.apiKey, rawBody: '{"notes":"x"}', headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    expect(await bookingState(s)).toEqual(before);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing changes", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await expectUnauthorized(await api("PATCH", `/bookings/${s.booking.id}`, { body: { status: "CANCELLED" } }), false);
    expect(await bookingState(s)).toEqual(before);
  });

  it("a revoked key: 401, nothing changes", async () => {
    const s = await setup();
    const before = await bookingState(s);
    await expectUnauthorized(await patch(await revokedKey(s.businessId), s.booking.id, { status: "CANCELLED" }), true);
    expect(await bookingState(s)).toEqual(before);
  });

  it("another business gets the 404 of an unknown id and changes nothing", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const before = await bookingState(s);
    const unknownId = unknownIdLike(s.booking.id);
    await expectNotFoundLikeUnknown(
      await patch(other.apiKey, s.booking.id, { status: "CANCELLED", cancellationReason: "pwned" }),
      s.booking.id,
      await patch(other.apiKey, unknownId, { status: "CANCELLED", cancellationReason: "pwned" }),
      unknownId,
      ["Owner Clinic", s.booking.customerEmail, s.serviceId, s.businessId],
    );
    expect(await bookingState(s)).toEqual(before);
  });
});
