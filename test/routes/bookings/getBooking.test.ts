/** GET /bookings/{id}: one booking, bare, with its version as ETag. */
import type { z } from "@hono/zod-openapi";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { LinkedBooking } from "../../../src/manage-links/present";
import { BookingSchema } from "../../../src/schemas/bookings";
import {
  api,
  bookingFields,
  createAccount,
  createService,
  insertBooking,
  json,
  problem,
  utc,
  validationError,
} from "../../support/api";
import { at, book, bookingBody, businessWithCustomer } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("returns the booking bare, in the public shape", async () => {
    const s = await businessWithCustomer();
    const row = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: utc("2030-12-01T10:00:00Z"),
      customerPhone: "+49 30 1234567",
      notes: "First visit.",
    });
    const res = await api("GET", `/bookings/${row.id}`, { key: s.apiKey });
    expect(res.status).toBe(200);
    const booking = await json(res);
    expect(Object.keys(booking).sort()).toEqual(bookingFields);
    expect(booking).toEqual({
      id: row.id,
      serviceId: s.serviceId,
      providerId: null,
      providerIds: [],
      resourceIds: [],
      customerId: s.customerId,
      customerName: "Ada Lovelace",
      customerEmail: "ada@example.com",
      customerPhone: "+49 30 1234567",
      startTime: "2030-12-01T10:00:00.000Z",
      endTime: "2030-12-01T10:30:00.000Z",
      notes: "First visit.",
      answers: {},
      appointmentId: null,
      seriesId: null,
      status: "CONFIRMED",
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      cancelledAt: null,
      cancellationReason: null,
      conflicts: [],
      manageUrl: expect.stringMatching(new RegExp(`^http://api\\.test/api/v1/manage/${row.id}\\.[A-Za-z0-9_-]{43}$`)),
    });
  });

  it("sends the version as ETag; If-None-Match with it is a 304 until the booking changes", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const booking = await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    const path = `/bookings/${booking.id}`;
    const res = await api("GET", path, { key: apiKey });
    expect(res.headers.get("ETag")).toBe('"v1"');
    expect(await json(res)).toEqual(booking);
    const notModified = await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect((await api("PATCH", path, { key: apiKey, body: { notes: "Window seat." } })).status).toBe(200);
    const changed = await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).toBe('"v2"');
    expect((await json(changed)).notes).toBe("Window seat.");
  });

  it("the Booking schema of the API is exactly the domain Booking type with its manage link", () => {
    expectTypeOf<z.infer<typeof BookingSchema>>().toEqualTypeOf<LinkedBooking>();
    expect(Object.keys(BookingSchema.shape).sort()).toEqual([...bookingFields].sort());
  });
});

describe("error", () => {
  it("an unknown id is 404 not_found", async () => {
    const s = await businessWithCustomer();
    await problem(await api("GET", "/bookings/bkg_unknown", { key: s.apiKey }), 404, "not_found");
  });

  it("an id longer than 64 characters is 422 at id", async () => {
    const s = await businessWithCustomer();
    await validationError(await api("GET", `/bookings/bkg_${"x".repeat(61)}`, { key: s.apiKey }), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const s = await businessWithCustomer();
    const row = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: utc("2026-12-01T10:00:00Z"),
    });
    await expectUnauthorized(await api("GET", `/bookings/${row.id}`), false);
  });

  it("a revoked key gets a 401 and not the booking", async () => {
    const s = await businessWithCustomer();
    const row = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: utc("2026-12-01T10:00:00Z"),
      customerName: "Zelda Quixotewright",
    });
    const res = await api("GET", `/bookings/${row.id}`, { key: await revokedKey(s.businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("another business gets the 404 of an unknown id, naming nothing of the owner or the customer", async () => {
    const owner = await businessWithCustomer();
    const other = await createAccount("Other");
    const row = await insertBooking(owner.businessId, {
      serviceId: owner.serviceId,
      customerId: owner.customerId,
      startTime: utc("2026-12-01T10:00:00Z"),
      customerName: "Zelda Quixotewright",
      customerEmail: "zelda@example.com",
    });
    const unknownId = unknownIdLike(row.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/bookings/${row.id}`, { key: other.apiKey }),
      row.id,
      await api("GET", `/bookings/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Zelda", "zelda@example.com", owner.serviceId, owner.customerId, owner.businessId],
    );
    expect((await api("GET", `/bookings/${row.id}`, { key: owner.apiKey })).status).toBe(200);
  });
});
