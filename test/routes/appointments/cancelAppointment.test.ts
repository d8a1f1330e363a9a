/** POST /appointments/{id}/cancel: every segment still PENDING or CONFIRMED is cancelled and its slot freed. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { at, bookingBody, calendarStub, d1Bookings, plus, postBooking, slotAt } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";
import { bookVisit, spa, visitBody } from "../../support/visits";

async function setup() {
  const s = await spa();
  const start = at(2, "10:00");
  const visit = await bookVisit(
    s.apiKey,
    visitBody(start, [{ serviceId: s.cut, providerId: s.stylists[0] }, { serviceId: s.massage }]),
  );
  return { ...s, start, visit };
}

const cancel = (
  key: string | undefined,
  id: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) => api("POST", `/appointments/${id}/cancel`, { key, ...options });

describe("happy", () => {
  it("200: every segment CANCELLED with the reason, each slot bookable again at once", async () => {
    const s = await setup();
    const res = await cancel(s.apiKey, s.visit.id, { body: { reason: "Flu." } });
    expect(res.status).toBe(200);
    const visit = await json(res);
    expect(visit.status).toBe("CANCELLED");
    for (const b of visit.bookings)
      expect(b).toMatchObject({ status: "CANCELLED", cancellationReason: "Flu.", manageUrl: null });
    expect(await json(await api("GET", `/appointments/${s.visit.id}`, { key: s.apiKey }))).toEqual(visit);
    // The massage segment ran 10:30–11:30: the 11:00 massage slot it overlapped is free again.
    expect(await slotAt(s.apiKey, s.massage, plus(s.start, 60))).toMatchObject({ bookable: true });
    const again = await postBooking(s.apiKey, bookingBody(s.cut, s.start, { providerId: s.stylists[0] }));
    expect(again.status).toBe(201);
  });

  it("an empty body sent as JSON reads as none: cancelled without a reason", async () => {
    const s = await setup();
    const res = await api("POST", `/appointments/${s.visit.id}/cancel`, {
      key: s.apiKey,
      rawBody: "",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "CANCELLED" });
  });

  it("cancels what is left when one segment was cancelled on its own; no body needed", async () => {
    const s = await setup();
    await api("POST", `/bookings/${s.visit.bookings[0].id}/cancel`, { key: s.apiKey, body: { reason: "first" } });
    const visit = await json(await cancel(s.apiKey, s.visit.id));
    expect(visit.bookings.map((b: { cancellationReason: string | null }) => b.cancellationReason)).toEqual([
      "first",
      null,
    ]);
    expect((await calendarStub(s.businessId, s.massage).snapshot()).counters.cancelled).toBe(1);
  });

  it("the same Idempotency-Key replays the first answer", async () => {
    const s = await setup();
    const headers = { "Idempotency-Key": "cancel-visit" };
    const first = await cancel(s.apiKey, s.visit.id, { headers });
    const again = await cancel(s.apiKey, s.visit.id, { headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
  });
});

describe("error", () => {
  it("409 invalid_transition once no segment is left to cancel; nothing changes", async () => {
    const s = await setup();
    await cancel(s.apiKey, s.visit.id);
    const before = await d1Bookings(s.businessId);
    await problem(await cancel(s.apiKey, s.visit.id), 409, "invalid_transition");
    expect(await d1Bookings(s.businessId)).toEqual(before);
  });

  it("422 for an unknown field or an empty reason; 404 for no such visit", async () => {
    const s = await setup();
    await validationError(await cancel(s.apiKey, s.visit.id, { body: { why: "x" } }), "why");
    await validationError(await cancel(s.apiKey, s.visit.id, { body: { reason: "" } }), "reason");
    await problem(await cancel(s.apiKey, unknownIdLike(s.visit.id)), 404, "not_found");
    expect((await d1Bookings(s.businessId)).map((b) => b.status)).toEqual(["CONFIRMED", "CONFIRMED"]);
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one; nothing is cancelled", async () => {
    const s = await setup();
    await expectUnauthorized(await cancel(undefined, s.visit.id), false);
    await expectUnauthorized(await cancel(await revokedKey(s.businessId), s.visit.id), true);
    expect((await d1Bookings(s.businessId)).map((b) => b.status)).toEqual(["CONFIRMED", "CONFIRMED"]);
  });

  it("another business gets the 404 of an unknown id and cancels nothing", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const unknown = unknownIdLike(s.visit.id);
    await expectNotFoundLikeUnknown(
      await cancel(other.apiKey, s.visit.id),
      s.visit.id,
      await cancel(other.apiKey, unknown),
      unknown,
    );
    expect((await d1Bookings(s.businessId)).map((b) => b.status)).toEqual(["CONFIRMED", "CONFIRMED"]);
  });
});
