/**
 * After the create: cancel, status transitions (docs/api-behaviour.md, "Booking statuses"),
 * notes, and service changes — each applied in the calendar at once and mirrored in D1.
 */
import { describe, expect, it } from "vitest";
import { api, json, problem, validationError } from "../support/api";
import {
  appointmentStarted,
  at,
  book,
  bookingBody,
  businessWithService,
  calendarStub,
  d1Bookings,
  postBooking,
  slotAt,
} from "../support/bookings";

type Setup = Awaited<ReturnType<typeof businessWithService>>;

const cancel = (key: string, id: string, body?: unknown, headers?: Record<string, string>) =>
  api("POST", `/bookings/${id}/cancel`, { key, body, headers });

const patch = (key: string, id: string, body: unknown) => api("PATCH", `/bookings/${id}`, { key, body });

/** The booking as D1 and the calendar hold it, to prove a refusal changed nothing. */
async function state(s: Setup, id: string) {
  const [row] = (await d1Bookings(s.businessId)).filter((b) => b.id === id);
  return { row, calendar: await calendarStub(s.businessId, s.serviceId).snapshot() };
}

/** Walks a booking through `statuses` with PATCH, asserting each step is a 200. */
async function walk(s: { apiKey: string; businessId: string; serviceId: string }, id: string, statuses: string[]) {
  for (const status of statuses) {
    if (status === "COMPLETED" || status === "NO_SHOW") await appointmentStarted(s.businessId, s.serviceId, id);
    const res = await patch(s.apiKey, id, { status });
    expect(res.status, `→ ${status}: ${await res.clone().text()}`).toBe(200);
  }
}

describe("happy", () => {
  it("cancel frees the slot at once: remaining back to capacity, the same slot books again", async () => {
    const s = await businessWithService();
    const startTime = at(2, "10:00");
    const first = await book(s.apiKey, bookingBody(s.serviceId, startTime));
    expect(await slotAt(s.apiKey, s.serviceId, startTime)).toMatchObject({ booked: 1, remaining: 0 });

    const res = await cancel(s.apiKey, first.id, { reason: "Customer is ill." });
    expect(res.status).toBe(200);
    const cancelled = await json(res);
    expect(cancelled).toMatchObject({
      id: first.id,
      status: "CANCELLED",
      cancellationReason: "Customer is ill.",
      cancelledAt: expect.stringMatching(/Z$/),
      createdAt: first.createdAt,
    });
    expect(cancelled.updatedAt).toBe(cancelled.cancelledAt);
    expect(await slotAt(s.apiKey, s.serviceId, startTime)).toMatchObject({
      capacity: 1,
      booked: 0,
      remaining: 1,
      bookable: true,
    });

    const again = await book(s.apiKey, bookingBody(s.serviceId, startTime));
    expect(again.id).not.toBe(first.id);
    const rows = await d1Bookings(s.businessId);
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.status, r.version]]))).toEqual({
      [first.id]: ["CANCELLED", 2],
      [again.id]: ["CONFIRMED", 1],
    });
    expect(await json(await api("GET", `/bookings/${first.id}`, { key: s.apiKey }))).toEqual(cancelled);
  });

  it("cancel without a body", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const res = await api("POST", `/bookings/${booking.id}/cancel`, { key: s.apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "CANCELLED", cancellationReason: null });
  });

  it("cancel with Content-Type: application/json and an empty body (as some clients send)", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:30")));
    const res = await api("POST", `/bookings/${booking.id}/cancel`, {
      key: s.apiKey,
      rawBody: "",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "CANCELLED", cancellationReason: null });
  });

  it("cancel with the same Idempotency-Key twice: the second is a replay", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const headers = { "Idempotency-Key": "cancel-once" };
    const first = await cancel(s.apiKey, booking.id, { reason: "Moved away." }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const second = await cancel(s.apiKey, booking.id, { reason: "Moved away." }, headers);
    expect(second.status).toBe(200);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(second)).toEqual(await json(first));
    expect((await d1Bookings(s.businessId))[0]).toMatchObject({ status: "CANCELLED", version: 2 });
  });

  it("PENDING → CONFIRMED → COMPLETED", async () => {
    const s = await businessWithService({ requiresConfirmation: true });
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    expect(booking.status).toBe("PENDING");

    const confirmed = await patch(s.apiKey, booking.id, { status: "CONFIRMED" });
    expect(confirmed.status).toBe(200);
    expect(await json(confirmed)).toMatchObject({ status: "CONFIRMED", cancelledAt: null });

    // Before the appointment starts it has not happened: a 409 that changes nothing.
    await problem(await patch(s.apiKey, booking.id, { status: "COMPLETED" }), 409, "invalid_transition");
    await problem(await patch(s.apiKey, booking.id, { status: "NO_SHOW" }), 409, "invalid_transition");
    expect((await d1Bookings(s.businessId))[0]).toMatchObject({ status: "CONFIRMED", version: 2 });

    await appointmentStarted(s.businessId, s.serviceId, booking.id);
    const completed = await patch(s.apiKey, booking.id, { status: "COMPLETED" });
    expect(completed.status).toBe(200);
    expect(await json(completed)).toMatchObject({ status: "COMPLETED" });
    expect((await d1Bookings(s.businessId))[0]).toMatchObject({ status: "COMPLETED", version: 3 });
    const { counters } = await calendarStub(s.businessId, s.serviceId).snapshot();
    expect(counters).toMatchObject({ active: 0, pending: 0, confirmed: 0, completed: 1 });
  });

  it("CONFIRMED → NO_SHOW", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await walk(s, booking.id, ["NO_SHOW"]);
    expect((await d1Bookings(s.businessId))[0]?.status).toBe("NO_SHOW");
  });

  it("PENDING → CANCELLED by PATCH, with a reason", async () => {
    const s = await businessWithService({ requiresConfirmation: true });
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const res = await patch(s.apiKey, booking.id, { status: "CANCELLED", cancellationReason: "Double booked." });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "CANCELLED", cancellationReason: "Double booked." });
    expect(await slotAt(s.apiKey, s.serviceId, at(2, "10:00"))).toMatchObject({ booked: 0, remaining: 1 });
  });

  it("PATCH notes changes only the notes; null clears them", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { notes: "Old." }));
    const res = await patch(s.apiKey, booking.id, { notes: "Bring the X-rays." });
    expect(res.status).toBe(200);
    const updated = await json(res);
    expect(updated).toEqual({ ...booking, notes: "Bring the X-rays.", updatedAt: updated.updatedAt });
    expect((await d1Bookings(s.businessId))[0]).toMatchObject({
      notes: "Bring the X-rays.",
      status: "CONFIRMED",
      version: 2,
    });

    const cleared = await patch(s.apiKey, booking.id, { notes: null });
    expect(cleared.status).toBe(200);
    expect((await json(cleared)).notes).toBeNull();
    expect(await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }))).toMatchObject({ notes: null });
  });

  it("a service's capacity change (1 → 2) applies to the next booking of an already-booked slot", async () => {
    const s = await businessWithService();
    const startTime = at(2, "10:00");
    await book(s.apiKey, bookingBody(s.serviceId, startTime));
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, startTime))).status).toBe(409);

    const res = await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { capacity: 2 } });
    expect(res.status).toBe(200);
    expect(await slotAt(s.apiKey, s.serviceId, startTime)).toMatchObject({ capacity: 2, booked: 1, remaining: 1 });

    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, startTime))).status).toBe(201);
    expect(await slotAt(s.apiKey, s.serviceId, startTime)).toMatchObject({ capacity: 2, booked: 2, remaining: 0 });
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, startTime))).status).toBe(409);
  });

  it("lowering capacity (2 → 1) below a slot's bookings is refused, listing them; after a cancel it goes through", async () => {
    const s = await businessWithService({ capacity: 2 });
    const startTime = at(2, "10:00");
    const first = await book(s.apiKey, bookingBody(s.serviceId, startTime));
    const second = await book(s.apiKey, bookingBody(s.serviceId, startTime));
    const refused = await problem(
      await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { capacity: 1 } }),
      409,
      "bookings_conflict",
    );
    expect(refused.conflicts).toEqual([
      { providerId: null, at: new Date(startTime).toISOString(), bookingIds: [first.id, second.id].sort() },
    ]);
    expect(await slotAt(s.apiKey, s.serviceId, startTime)).toMatchObject({ capacity: 2, booked: 2, remaining: 0 });
    expect((await cancel(s.apiKey, second.id)).status).toBe(200);
    const lowered = await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { capacity: 1 } });
    expect(lowered.status).toBe(200);
    expect(await slotAt(s.apiKey, s.serviceId, startTime)).toMatchObject({ capacity: 1, booked: 1, remaining: 0 });
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, startTime))).status).toBe(409);
  });

  it("deactivating a service refuses new bookings but existing ones can still be cancelled", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { active: false } });
    await problem(await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "11:00"))), 422, "service_inactive");
    expect((await cancel(s.apiKey, booking.id)).status).toBe(200);
  });
});

describe("error", () => {
  it("cancelling twice → 409 invalid_transition, nothing changes", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    expect((await cancel(s.apiKey, booking.id)).status).toBe(200);
    const before = await state(s, booking.id);
    await problem(await cancel(s.apiKey, booking.id), 409, "invalid_transition");
    expect(await state(s, booking.id)).toEqual(before);
  });

  it.each([
    { label: "COMPLETED → CONFIRMED", path: ["COMPLETED"], to: "CONFIRMED" },
    { label: "CONFIRMED → PENDING", path: [], to: "PENDING" },
    { label: "CONFIRMED → CONFIRMED", path: [], to: "CONFIRMED" },
    { label: "CANCELLED → CONFIRMED", path: ["CANCELLED"], to: "CONFIRMED" },
    { label: "NO_SHOW → COMPLETED", path: ["NO_SHOW"], to: "COMPLETED" },
    { label: "COMPLETED → CANCELLED", path: ["COMPLETED"], to: "CANCELLED" },
  ])("$label is a 409 invalid_transition, nothing changes", async ({ path, to }) => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await walk(s, booking.id, path);
    const before = await state(s, booking.id);
    await problem(await patch(s.apiKey, booking.id, { status: to }), 409, "invalid_transition");
    expect(await state(s, booking.id)).toEqual(before);
  });

  it("PENDING → COMPLETED is a 409 invalid_transition", async () => {
    const s = await businessWithService({ requiresConfirmation: true });
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await problem(await patch(s.apiKey, booking.id, { status: "COMPLETED" }), 409, "invalid_transition");
  });

  it("an un-cancel cannot take a slot someone else booked meanwhile", async () => {
    const s = await businessWithService();
    const first = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await cancel(s.apiKey, first.id);
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await problem(await patch(s.apiKey, first.id, { status: "CONFIRMED" }), 409, "invalid_transition");
    expect(await slotAt(s.apiKey, s.serviceId, at(2, "10:00"))).toMatchObject({ booked: 1, remaining: 0 });
  });

  it.each([
    {
      name: "cancellationReason without CANCELLED",
      body: { cancellationReason: "No reason.", notes: "x" },
      path: "cancellationReason",
    },
    {
      name: "cancellationReason with CONFIRMED",
      body: { status: "COMPLETED", cancellationReason: "No." },
      path: "cancellationReason",
    },
    { name: "an empty body", body: {}, path: "(root)" },
    { name: "an unknown status", body: { status: "DONE" }, path: "status" },
    { name: "an unknown field", body: { startTime: "2030-01-01T10:00:00Z" }, path: "startTime" },
    { name: "notes too long", body: { notes: "x".repeat(2001) }, path: "notes" },
  ])("PATCH with $name → 422, nothing changes", async ({ body, path }) => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const before = await state(s, booking.id);
    await validationError(await patch(s.apiKey, booking.id, body), path);
    expect(await state(s, booking.id)).toEqual(before);
  });

  it.each([
    { name: "a reason over 500 characters", body: { reason: "x".repeat(501) }, path: "reason" },
    { name: "an unknown field", body: { status: "CANCELLED" }, path: "status" },
  ])("cancel with $name → 422, nothing changes", async ({ body, path }) => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const before = await state(s, booking.id);
    await validationError(await cancel(s.apiKey, booking.id, body), path);
    expect(await state(s, booking.id)).toEqual(before);
  });

  it("unknown booking id → 404 for GET, PATCH and cancel", async () => {
    const s = await businessWithService();
    const id = "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y";
    await problem(await api("GET", `/bookings/${id}`, { key: s.apiKey }), 404, "not_found");
    await problem(await patch(s.apiKey, id, { status: "CANCELLED" }), 404, "not_found");
    await problem(await cancel(s.apiKey, id), 404, "not_found");
  });
});

describe("security", () => {
  it("cancel and PATCH of another business's booking → 404, the booking is untouched", async () => {
    const a = await businessWithService();
    const b = await businessWithService();
    const booking = await book(a.apiKey, bookingBody(a.serviceId, at(2, "10:00")));
    const before = await state(a, booking.id);

    const cancelled = await problem(await cancel(b.apiKey, booking.id), 404, "not_found");
    const patched = await problem(await patch(b.apiKey, booking.id, { status: "CANCELLED" }), 404, "not_found");
    await problem(await patch(b.apiKey, booking.id, { notes: "pwned" }), 404, "not_found");
    // Indistinguishable from an id that does not exist anywhere.
    const unknown = await problem(await cancel(b.apiKey, "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y"), 404, "not_found");
    expect(cancelled.title).toBe(unknown.title);
    expect(patched.title).toBe(unknown.title);

    expect(await state(a, booking.id)).toEqual(before);
    expect(await slotAt(a.apiKey, a.serviceId, at(2, "10:00"))).toMatchObject({ booked: 1, remaining: 0 });
  });

  it("a cancel Idempotency-Key reused for another booking → 422 idempotency_key_reused", async () => {
    const s = await businessWithService();
    const one = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const two = await book(s.apiKey, bookingBody(s.serviceId, at(2, "11:00")));
    const headers = { "Idempotency-Key": "cancel-key" };
    expect((await cancel(s.apiKey, one.id, undefined, headers)).status).toBe(200);
    await problem(await cancel(s.apiKey, two.id, undefined, headers), 422, "idempotency_key_reused");
    expect((await d1Bookings(s.businessId)).find((b) => b.id === two.id)?.status).toBe("CONFIRMED");
  });

  it("without an API key → 401 for PATCH and cancel", async () => {
    const s = await businessWithService();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    await problem(await patch("", booking.id, { status: "CANCELLED" }), 401, "unauthorized");
    await problem(await cancel("", booking.id), 401, "unauthorized");
    expect((await d1Bookings(s.businessId))[0]?.status).toBe("CONFIRMED");
  });
});
