/**
 * Reads of bookings. Bookings are written by the service's calendar; here the rows go straight
 * into D1 so the read side can be tested on its own.
 */
import type { z } from "@hono/zod-openapi";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Booking } from "../../src/bookings/booking";
import { newId } from "../../src/lib/ids";
import { BookingSchema } from "../../src/routes/bookings/schemas";
import {
  api,
  bookingFields,
  createAccount,
  createCustomer,
  createService,
  insertBooking,
  json,
  problem,
  type TestAccount,
  validationError,
} from "../helpers";

/** A business with one service and one customer, ready for bookings. */
async function setup(): Promise<TestAccount & { serviceId: string; customerId: string }> {
  const account = await createAccount();
  const service = await createService(account.apiKey);
  const customer = await createCustomer(account.apiKey);
  return { ...account, serviceId: service.id, customerId: customer.id };
}

/** Ids of the bookings a list request returns, in order. */
async function listIds(key: string, query = ""): Promise<string[]> {
  const res = await api("GET", `/bookings${query}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((b: { id: string }) => b.id);
}

const at = (iso: string) => new Date(iso).toISOString();

describe("happy", () => {
  it("GET /bookings/{id} returns the booking bare, in the public shape", async () => {
    const s = await setup();
    const row = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: at("2026-12-01T10:00:00Z"),
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
      customerId: s.customerId,
      customerName: "Ada Lovelace",
      customerEmail: "ada@example.com",
      customerPhone: "+49 30 1234567",
      startTime: "2026-12-01T10:00:00.000Z",
      endTime: "2026-12-01T10:30:00.000Z",
      notes: "First visit.",
      status: "CONFIRMED",
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      cancelledAt: null,
      cancellationReason: null,
    });
  });

  it("lists newest appointment first, then id descending on equal start times", async () => {
    const s = await setup();
    const base = { serviceId: s.serviceId, customerId: s.customerId };
    const t0 = Date.parse("2026-12-01T09:00:00Z");
    // Ids sort by their timestamp part; insert in an order that is neither the expected one nor its reverse.
    const tieLow = newId("booking", t0);
    const tieHigh = newId("booking", t0 + 60_000);
    const rows: { id: string; startTime: string }[] = [
      { id: tieLow, startTime: at("2026-12-02T10:00:00Z") },
      { id: newId("booking", t0 + 1), startTime: at("2026-12-03T10:00:00Z") },
      { id: newId("booking", t0 + 2), startTime: at("2026-12-01T10:00:00Z") },
      { id: tieHigh, startTime: at("2026-12-02T10:00:00Z") },
    ];
    for (const row of rows) await insertBooking(s.businessId, { ...base, ...row });
    expect(await listIds(s.apiKey)).toEqual([rows[1]?.id, tieHigh, tieLow, rows[2]?.id]);
  });

  it("filters by status", async () => {
    const s = await setup();
    const base = { serviceId: s.serviceId, customerId: s.customerId };
    const confirmed = await insertBooking(s.businessId, { ...base, startTime: at("2026-12-01T09:00:00Z") });
    const cancelled = await insertBooking(s.businessId, {
      ...base,
      startTime: at("2026-12-01T10:00:00Z"),
      status: "CANCELLED",
      cancelledAt: new Date().toISOString(),
      cancellationReason: "Sick",
    });
    const pending = await insertBooking(s.businessId, {
      ...base,
      startTime: at("2026-12-01T11:00:00Z"),
      status: "PENDING",
    });
    expect(await listIds(s.apiKey, "?status=CANCELLED")).toEqual([cancelled.id]);
    expect(await listIds(s.apiKey, "?status=PENDING")).toEqual([pending.id]);
    expect(await listIds(s.apiKey, "?status=CONFIRMED")).toEqual([confirmed.id]);
    expect(await listIds(s.apiKey, "?status=NO_SHOW")).toEqual([]);
    const cancelledBody = await json(await api("GET", `/bookings/${cancelled.id}`, { key: s.apiKey }));
    expect(cancelledBody).toMatchObject({ status: "CANCELLED", cancellationReason: "Sick" });
  });

  it("filters by serviceId and by customerId, and combines filters", async () => {
    const s = await setup();
    const otherService = (await createService(s.apiKey, { name: "Other" })).id;
    const otherCustomer = (await createCustomer(s.apiKey, { name: "Grace" })).id;
    const a = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: at("2026-12-01T09:00:00Z"),
    });
    const b = await insertBooking(s.businessId, {
      serviceId: otherService,
      customerId: s.customerId,
      startTime: at("2026-12-01T10:00:00Z"),
    });
    const c = await insertBooking(s.businessId, {
      serviceId: otherService,
      customerId: otherCustomer,
      startTime: at("2026-12-01T11:00:00Z"),
      status: "CANCELLED",
    });
    expect(await listIds(s.apiKey, `?serviceId=${s.serviceId}`)).toEqual([a.id]);
    expect(await listIds(s.apiKey, `?serviceId=${otherService}`)).toEqual([c.id, b.id]);
    expect(await listIds(s.apiKey, `?customerId=${s.customerId}`)).toEqual([b.id, a.id]);
    expect(await listIds(s.apiKey, `?customerId=${otherCustomer}`)).toEqual([c.id]);
    expect(await listIds(s.apiKey, `?serviceId=${otherService}&customerId=${s.customerId}`)).toEqual([b.id]);
    expect(await listIds(s.apiKey, `?serviceId=${otherService}&status=CONFIRMED`)).toEqual([b.id]);
    expect(await listIds(s.apiKey, "?serviceId=svc_unknown")).toEqual([]);
  });

  it("from is inclusive and to is exclusive, both on the start time", async () => {
    const s = await setup();
    const base = { serviceId: s.serviceId, customerId: s.customerId };
    const nine = await insertBooking(s.businessId, { ...base, startTime: at("2026-12-01T09:00:00Z") });
    const ten = await insertBooking(s.businessId, { ...base, startTime: at("2026-12-01T10:00:00Z") });
    const eleven = await insertBooking(s.businessId, { ...base, startTime: at("2026-12-01T11:00:00Z") });
    expect(await listIds(s.apiKey, "?from=2026-12-01T10:00:00Z")).toEqual([eleven.id, ten.id]);
    expect(await listIds(s.apiKey, "?to=2026-12-01T10:00:00Z")).toEqual([nine.id]);
    expect(await listIds(s.apiKey, "?from=2026-12-01T09:30:00Z&to=2026-12-01T11:00:00Z")).toEqual([ten.id]);
    expect(await listIds(s.apiKey, "?from=2026-12-01T09:59:59.999Z&to=2026-12-01T10:00:00.001Z")).toEqual([ten.id]);
    // A booking that started before `from` but runs past it is not included: the filter is on startTime.
    expect(await listIds(s.apiKey, "?from=2026-12-01T09:15:00Z&to=2026-12-01T10:00:00Z")).toEqual([]);
  });
});

describe("errors", () => {
  it.each([
    ["an unknown status", "?status=BOGUS", "status"],
    ["a lower-case status", "?status=confirmed", "status"],
    ["from with an offset", `?from=${encodeURIComponent("2026-12-01T10:00:00+01:00")}`, "from"],
    ["from without Z", "?from=2026-12-01T10:00:00", "from"],
    ["to as a date only", "?to=2026-12-01", "to"],
    ["an impossible date", "?from=2026-02-30T10:00:00Z", "from"],
    ["an empty serviceId", "?serviceId=", "serviceId"],
  ])("GET /bookings rejects %s with 422", async (_, query, path) => {
    const s = await setup();
    await validationError(await api("GET", `/bookings${query}`, { key: s.apiKey }), path);
  });

  it("GET /bookings/{id} of an unknown id is 404 not_found", async () => {
    const s = await setup();
    await problem(await api("GET", "/bookings/bkg_unknown", { key: s.apiKey }), 404, "not_found");
  });
});

describe("security", () => {
  it("bookings need an API key", async () => {
    const s = await setup();
    const row = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: at("2026-12-01T10:00:00Z"),
    });
    await problem(await api("GET", "/bookings"), 401, "unauthorized");
    await problem(await api("GET", `/bookings/${row.id}`), 401, "unauthorized");
  });

  it("another business sees none of the bookings, even filtering by the owner's ids", async () => {
    const owner = await setup();
    const other = await createAccount("Other");
    const row = await insertBooking(owner.businessId, {
      serviceId: owner.serviceId,
      customerId: owner.customerId,
      startTime: at("2026-12-01T10:00:00Z"),
    });
    await problem(await api("GET", `/bookings/${row.id}`, { key: other.apiKey }), 404, "not_found");
    expect(await listIds(other.apiKey)).toEqual([]);
    expect(await listIds(other.apiKey, `?serviceId=${owner.serviceId}`)).toEqual([]);
    expect(await listIds(other.apiKey, `?customerId=${owner.customerId}`)).toEqual([]);
    expect(await listIds(owner.apiKey)).toEqual([row.id]);
  });
});

describe("booking shape", () => {
  it("the Booking schema of the API is exactly the domain Booking type", () => {
    expectTypeOf<z.infer<typeof BookingSchema>>().toEqualTypeOf<Booking>();
    expect(Object.keys(BookingSchema.shape).sort()).toEqual([...bookingFields].sort());
  });
});
