/**
 * POST /bookings: book an appointment. Every rule and refusal of the booking engine is proven in
 * test/bookings (create, idempotency, concurrency, providers); here each documented answer of the
 * operation is shown once from the outside.
 */
import { describe, expect, it } from "vitest";
import {
  api,
  bookingFields,
  createAccount,
  createService,
  expectUnreadableBodiesRefused,
  json,
  problem,
  validationError,
} from "../../support/api";
import { at, book, bookingBody, d1Counts, freshEmail, plus, postBooking, slotAt } from "../../support/bookings";
import { takeCalls } from "../../support/faults";
import { hold, salon } from "../../support/fixtures";
import { expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("201 with Location and the booking in its public shape, CONFIRMED; its customer is created by e-mail", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const email = freshEmail();
    const res = await postBooking(
      apiKey,
      bookingBody(service.id, at(2, "10:00"), { customerEmail: email, customerPhone: "+1 555 0100", notes: "Hi" }),
    );
    expect(res.status).toBe(201);
    const booking = await json(res);
    expect(Object.keys(booking).sort()).toEqual(bookingFields);
    expect(res.headers.get("Location")).toBe(`/api/v1/bookings/${booking.id}`);
    expect(booking).toMatchObject({
      serviceId: service.id,
      providerId: null,
      status: "CONFIRMED",
      customerEmail: email,
      customerPhone: "+1 555 0100",
      notes: "Hi",
      startTime: new Date(at(2, "10:00")).toISOString(),
      endTime: new Date(at(2, "10:30")).toISOString(),
      cancelledAt: null,
    });
    expect(booking.id).toMatch(/^bkg_[0-9a-z]{26}$/);
    const customer = await json(await api("GET", `/customers/${booking.customerId}`, { key: apiKey }));
    expect(customer).toMatchObject({ email, name: "Ada Lovelace", phone: "+1 555 0100" });
    expect(await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }))).toEqual(booking);
  });

  it("a service that requires confirmation books PENDING", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { requiresConfirmation: true });
    expect((await book(apiKey, bookingBody(service.id, at(2, "10:00")))).status).toBe("PENDING");
  });

  it("on a service with providers one is assigned, or the one asked for performs it", async () => {
    const s = await salon(2);
    const [first, second] = s.providerIds as [string, string];
    const assigned = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00")));
    expect(s.providerIds).toContain(assigned.providerId);
    const asked = await book(s.apiKey, bookingBody(s.cut, at(3, "11:00"), { providerId: second }));
    expect(asked.providerId).toBe(second);
    // The other stylist takes the same time when the first is busy.
    const other = await book(s.apiKey, bookingBody(s.colour, at(3, "10:00")));
    expect(other.providerId).toBe(assigned.providerId === first ? second : first);
  });

  it("with holdId the hold's seat becomes the booking's: service and times come from the hold", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const held = await hold(apiKey, service.id, at(3, "10:00"));
    const res = await postBooking(apiKey, { holdId: held.id, customerName: "Ada", customerEmail: freshEmail() });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ serviceId: service.id, startTime: held.startTime, endTime: held.endTime });
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ booked: 1, held: 0, remaining: 0 });
  });

  it("booking a hold is one call to its service's calendar, which finds the hold itself", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const held = await hold(apiKey, service.id, at(3, "10:00"));
    const calendar = [{ calendar: "service" as const, id: service.id as string }];
    await takeCalls(businessId, calendar);
    const res = await postBooking(apiKey, { holdId: held.id, customerName: "Ada", customerEmail: freshEmail() });
    expect(res.status).toBe(201);
    expect((await takeCalls(businessId, calendar))[`service:${service.id}`]).toEqual({ createBooking: 1 });
  });

  it("the same Idempotency-Key and body replays the first answer with Idempotent-Replayed, booking once", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 5 });
    const body = bookingBody(service.id, at(2, "10:00"));
    const first = await postBooking(apiKey, body, "retry-me");
    const again = await postBooking(apiKey, body, "retry-me");
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await json(again)).toEqual(await json(first));
    expect((await d1Counts(businessId)).bookings).toBe(1);
  });
});

describe("error", () => {
  it("without holdId, serviceId, startTime and endTime are each required: one 422 names them all", async () => {
    const { apiKey } = await createAccount();
    const res = await postBooking(apiKey, { customerName: "Ada", customerEmail: freshEmail() });
    const body = await problem(res, 422, "validation_failed");
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["endTime", "serviceId", "startTime"]);
  });

  it.each([
    ["a duration other than the service's", { endTime: plus(at(2, "10:00"), 45) }, "endTime"],
    ["a start time with an offset", { startTime: "2030-01-01T10:00:00+01:00" }, "startTime"],
    ["an unknown field", { status: "CONFIRMED" }, "status"],
    ["an e-mail under .invalid", { customerEmail: "ada@example.invalid" }, "customerEmail"],
  ])("%s is a 422 naming the field, and nothing is booked", async (_, overrides, path) => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await postBooking(apiKey, bookingBody(service.id, at(2, "10:00"), overrides)), path);
    expect(await d1Counts(businessId)).toEqual({ bookings: 0, customers: 0 });
  });

  it("a start in the past is a 422 at startTime with reason in_the_past", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await postBooking(apiKey, bookingBody(service.id, at(-1, "10:00")));
    const body = await problem(res, 422, "validation_failed");
    expect(body.reason).toBe("in_the_past");
    expect(body.errors).toEqual([{ path: "startTime", message: expect.any(String) }]);
  });

  it("an unknown service is a 422 service_not_found, an inactive one 422 service_inactive, both at serviceId", async () => {
    const { apiKey } = await createAccount();
    const inactive = await createService(apiKey, { active: false });
    const unknown = await problem(
      await postBooking(apiKey, bookingBody("svc_unknown", at(2, "10:00"))),
      422,
      "service_not_found",
    );
    expect(unknown.errors).toEqual([{ path: "serviceId", message: expect.any(String) }]);
    const off = await problem(
      await postBooking(apiKey, bookingBody(inactive.id, at(2, "10:00"))),
      422,
      "service_inactive",
    );
    expect(off.errors).toEqual([{ path: "serviceId", message: expect.any(String) }]);
  });

  it("outside working hours and a full slot are 409 slot_unavailable with their reason", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const closed = await postBooking(apiKey, bookingBody(service.id, at(2, "07:00")));
    expect((await problem(closed, 409, "slot_unavailable")).reason).toBe("outside_working_hours");
    await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    const full = await postBooking(apiKey, bookingBody(service.id, at(2, "10:00")));
    expect((await problem(full, 409, "slot_unavailable")).reason).toBe("fully_booked");
    expect(full.headers.get("Retry-After")).toBeNull();
  });

  it("a providerId that does not perform the service is a 422 at providerId", async () => {
    const s = await salon(1);
    const { apiKey } = s;
    const plain = await createService(apiKey, { name: "No providers" });
    const [provider] = s.providerIds as [string];
    await validationError(
      await postBooking(apiKey, bookingBody(plain.id, at(3, "10:00"), { providerId: provider })),
      "providerId",
    );
  });

  it("a released hold is a 409 hold_expired; times that differ from the hold's are a 422 at that field", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const held = await hold(apiKey, service.id, at(3, "10:00"));
    const moved = await postBooking(apiKey, {
      holdId: held.id,
      startTime: at(3, "11:00"),
      customerName: "Ada",
      customerEmail: freshEmail(),
    });
    await validationError(moved, "startTime");
    expect((await api("DELETE", `/holds/${held.id}`, { key: apiKey })).status).toBe(204);
    const released = await postBooking(apiKey, { holdId: held.id, customerName: "Ada", customerEmail: freshEmail() });
    await problem(released, 409, "hold_expired");
  });

  it("an Idempotency-Key reused with another body is a 422 idempotency_key_reused, booking nothing new", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    expect((await postBooking(apiKey, bookingBody(service.id, at(2, "10:00")), "one-key")).status).toBe(201);
    const reused = await postBooking(apiKey, bookingBody(service.id, at(2, "11:00")), "one-key");
    await problem(reused, 422, "idempotency_key_reused");
    expect((await d1Counts(businessId)).bookings).toBe(1);
  });

  it("malformed JSON is 400, a body that is not JSON 415; nothing is booked", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    await expectUnreadableBodiesRefused(apiKey, "/bookings", bookingBody(service.id, at(2, "10:00")));
    expect(await d1Counts(businessId)).toEqual({ bookings: 0, customers: 0 });
    expect(await slotAt(apiKey, service.id, at(2, "10:00"))).toMatchObject({ booked: 0 });
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing booked", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(await postBooking("", bookingBody(service.id, at(2, "10:00"))), false);
    expect(await d1Counts(businessId)).toEqual({ bookings: 0, customers: 0 });
    expect(await slotAt(apiKey, service.id, at(2, "10:00"))).toMatchObject({ booked: 0 });
  });

  it("a revoked key: 401, nothing booked", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(
      await postBooking(await revokedKey(businessId), bookingBody(service.id, at(2, "10:00"))),
      true,
    );
    expect(await d1Counts(businessId)).toEqual({ bookings: 0, customers: 0 });
  });

  it("another business's service is refused exactly like an unknown one, and its calendar is untouched", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey, { name: "Owner's consultation" });
    const unknownId = unknownIdLike(service.id);
    const foreign = await postBooking(other.apiKey, bookingBody(service.id, at(2, "10:00")));
    const text = await foreign.clone().text();
    const foreignBody = await problem(foreign, 422, "service_not_found");
    const unknownBody = await problem(
      await postBooking(other.apiKey, bookingBody(unknownId, at(2, "10:00"))),
      422,
      "service_not_found",
    );
    expect(foreignBody.detail.replace(service.id, "<id>")).toBe(unknownBody.detail.replace(unknownId, "<id>"));
    expect(foreignBody.errors).toEqual(unknownBody.errors);
    for (const secret of ["Owner Clinic", "Owner's consultation", owner.businessId]) expect(text).not.toContain(secret);
    expect(await slotAt(owner.apiKey, service.id, at(2, "10:00"))).toMatchObject({ booked: 0, remaining: 1 });
    expect(await d1Counts(other.businessId)).toEqual({ bookings: 0, customers: 0 });
  });

  it("another business's hold cannot be booked: it is refused like an unknown hold and keeps its seat", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey);
    const held = await hold(owner.apiKey, service.id, at(3, "10:00"));
    const foreign = await postBooking(other.apiKey, {
      holdId: held.id,
      customerName: "Eve",
      customerEmail: freshEmail(),
    });
    const foreignEntry = await validationError(foreign, "holdId");
    const unknownId = unknownIdLike(held.id);
    const unknownEntry = await validationError(
      await postBooking(other.apiKey, { holdId: unknownId, customerName: "Eve", customerEmail: freshEmail() }),
      "holdId",
    );
    expect(foreignEntry.message).toBe(unknownEntry.message);
    expect((await json(await api("GET", `/holds/${held.id}`, { key: owner.apiKey }))).status).toBe("HELD");
    expect(await slotAt(owner.apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 1, booked: 0 });
  });
});
