/**
 * `Idempotency-Key` on POST /bookings (docs/api-behaviour.md, "Idempotency"): one booking per
 * key however the retries race, replays carry `Idempotent-Replayed: true`, reuse with another
 * body is a 422, keys are per business, and a failed request releases its key.
 */
import { describe, expect, it } from "vitest";
import { createService, json, problem, validationError } from "../support/api";
import {
  at,
  bookingBody,
  businessWithService,
  d1Bookings,
  d1Counts,
  plus,
  postBooking,
  statusCounts,
} from "../support/bookings";

/** Asserts a 201 replay of `original`: same body, same Location, the replay header. */
async function isReplayOf(res: Response, original: { id: string }) {
  expect(res.status).toBe(201);
  expect(res.headers.get("Idempotent-Replayed")).toBe("true");
  expect(res.headers.get("Location")).toBe(`/api/v1/bookings/${original.id}`);
  expect(await json(res)).toEqual(original);
}

describe("happy", () => {
  it("20 concurrent creates with one key and one body: one booking; 201, replays, or 409 in flight", async () => {
    const s = await businessWithService();
    const body = bookingBody(s.serviceId, at(2, "10:00"));
    const started = Date.now();
    const responses = await Promise.all(Array.from({ length: 20 }, () => postBooking(s.apiKey, body, "race-key")));
    console.log(`20 racing creates with one Idempotency-Key: ${Date.now() - started} ms`);

    const counts = statusCounts(responses);
    expect(Object.keys(counts).sort()).toEqual(
      Object.keys(counts)
        .filter((k) => k === "201" || k === "409")
        .sort(),
    );
    expect(counts[201]).toBeGreaterThanOrEqual(1);

    const created = responses.filter((r) => r.status === 201);
    const originals = created.filter((r) => r.headers.get("Idempotent-Replayed") === null);
    expect(originals).toHaveLength(1);
    const original = await json((originals[0] as Response).clone());
    for (const res of created.filter((r) => r !== originals[0])) await isReplayOf(res, original);
    for (const res of responses.filter((r) => r.status === 409)) await problem(res, 409, "idempotency_key_in_flight");

    const rows = await d1Bookings(s.businessId);
    expect(rows.map((r) => r.id)).toEqual([original.id]);

    // A later retry replays the stored answer.
    await isReplayOf(await postBooking(s.apiKey, body, "race-key"), original);
    expect(await d1Bookings(s.businessId)).toHaveLength(1);
  });

  it("a sequential retry replays 201 with the same booking and creates nothing", async () => {
    const s = await businessWithService();
    const body = bookingBody(s.serviceId, at(2, "10:00"));
    const first = await postBooking(s.apiKey, body, "k-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const original = await json(first);
    const counts = await d1Counts(s.businessId);

    await isReplayOf(await postBooking(s.apiKey, body, "k-1"), original);
    await isReplayOf(await postBooking(s.apiKey, { ...body }, "k-1"), original);
    expect(await d1Counts(s.businessId)).toEqual(counts);
  });

  it("the same body under a different key is a new request (here: the slot is taken)", async () => {
    const s = await businessWithService();
    const body = bookingBody(s.serviceId, at(2, "10:00"));
    expect((await postBooking(s.apiKey, body, "k-a")).status).toBe(201);
    const other = await postBooking(s.apiKey, body, "k-b");
    expect((await problem(other, 409, "slot_unavailable")).reason).toBe("fully_booked");
  });

  it("after a failed request (409 slot_unavailable) the key is released and works with a fixed body", async () => {
    const s = await businessWithService();
    await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const taken = bookingBody(s.serviceId, at(2, "10:00"));
    await problem(await postBooking(s.apiKey, taken, "retry-key"), 409, "slot_unavailable");

    const fixed = { ...taken, startTime: at(2, "11:00"), endTime: plus(at(2, "11:00"), 30) };
    const res = await postBooking(s.apiKey, fixed, "retry-key");
    expect(res.status).toBe(201);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    const booking = await json(res);
    expect(booking.startTime).toBe(new Date(fixed.startTime).toISOString());
    await isReplayOf(await postBooking(s.apiKey, fixed, "retry-key"), booking);
    expect(await d1Bookings(s.businessId)).toHaveLength(2);
  });

  it("after a 422 from the calendar (wrong duration) the key is released too", async () => {
    const s = await businessWithService();
    const wrong = bookingBody(s.serviceId, at(2, "10:00"), { endTime: plus(at(2, "10:00"), 45) });
    await validationError(await postBooking(s.apiKey, wrong, "dur-key"), "endTime");
    const res = await postBooking(s.apiKey, { ...wrong, endTime: plus(at(2, "10:00"), 30) }, "dur-key");
    expect(res.status).toBe(201);
  });

  it("a key of 255 visible characters is accepted", async () => {
    const s = await businessWithService();
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")), "k".repeat(255));
    expect(res.status).toBe(201);
  });
});

describe("error", () => {
  it("same key with a different body → 422 idempotency_key_reused, nothing new written", async () => {
    const s = await businessWithService();
    const body = bookingBody(s.serviceId, at(2, "10:00"));
    expect((await postBooking(s.apiKey, body, "k-reuse")).status).toBe(201);
    const counts = await d1Counts(s.businessId);
    const other = { ...body, startTime: at(2, "11:00"), endTime: plus(at(2, "11:00"), 30) };
    await problem(await postBooking(s.apiKey, other, "k-reuse"), 422, "idempotency_key_reused");
    await problem(await postBooking(s.apiKey, { ...body, notes: "changed" }, "k-reuse"), 422, "idempotency_key_reused");
    expect(await d1Counts(s.businessId)).toEqual(counts);
  });

  it("same key concurrently for two different services → at most one booking", async () => {
    const s = await businessWithService();
    const service2 = await createService(s.apiKey);
    const [one, two] = await Promise.all([
      postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { customerEmail: "x@example.com" }), "two-svc"),
      postBooking(s.apiKey, bookingBody(service2.id, at(2, "10:00"), { customerEmail: "x@example.com" }), "two-svc"),
    ]);
    const results = [one as Response, two as Response];
    expect(results.filter((r) => r.status === 201).length).toBeLessThanOrEqual(1);
    for (const res of results.filter((r) => r.status !== 201)) {
      const body = await json(res.clone());
      expect(["409 idempotency_key_in_flight", "422 idempotency_key_reused"]).toContain(`${res.status} ${body.code}`);
    }
    expect((await d1Bookings(s.businessId)).length).toBe(results.filter((r) => r.status === 201).length);
  });

  it.each([
    { name: "256 characters", key: "k".repeat(256) },
    { name: "an empty key", key: "" },
    { name: "a space inside", key: "a b" },
    { name: "a control character", key: "a\tb" },
  ])("a key with $name → 422 validation_failed, nothing written", async ({ key }) => {
    const s = await businessWithService();
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")), key);
    const body = await problem(res, 422, "validation_failed");
    // Header names are case-insensitive; the length check reports "idempotency-key", the charset check "Idempotency-Key".
    expect(body.errors.map((e: { path: string }) => e.path.toLowerCase())).toContain("idempotency-key");
    expect(await d1Counts(s.businessId)).toEqual({ bookings: 0, customers: 0 });
  });
});

describe("security", () => {
  it("keys are per business: B's request with A's key is B's own, never A's replay", async () => {
    const a = await businessWithService();
    const b = await businessWithService();
    const resA = await postBooking(a.apiKey, bookingBody(a.serviceId, at(2, "10:00")), "shared-key");
    expect(resA.status).toBe(201);
    const bookingA = await json(resA);

    const resB = await postBooking(b.apiKey, bookingBody(b.serviceId, at(2, "10:00")), "shared-key");
    expect(resB.status).toBe(201);
    expect(resB.headers.get("Idempotent-Replayed")).toBeNull();
    const bookingB = await json(resB);
    expect(bookingB.id).not.toBe(bookingA.id);
    expect(bookingB.serviceId).toBe(b.serviceId);
    expect(await d1Bookings(a.businessId)).toHaveLength(1);
    expect(await d1Bookings(b.businessId)).toHaveLength(1);
  });

  it("B replaying A's exact request under A's key gets no copy of A's booking", async () => {
    const a = await businessWithService();
    const b = await businessWithService();
    const body = bookingBody(a.serviceId, at(2, "10:00"));
    expect((await postBooking(a.apiKey, body, "steal-me")).status).toBe(201);
    const res = await postBooking(b.apiKey, body, "steal-me");
    const problemBody = await problem(res, 422, "service_not_found");
    expect(JSON.stringify(problemBody)).not.toContain("bkg_");
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await d1Counts(b.businessId)).toEqual({ bookings: 0, customers: 0 });
  });
});
