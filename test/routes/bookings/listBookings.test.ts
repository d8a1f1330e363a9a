/**
 * GET /bookings: newest appointment first, filtered by status, service, customer and a range of
 * start times. Bookings are written by the service's calendar; here most rows go straight into D1
 * so the read side can be tested on its own.
 */
import { describe, expect, it } from "vitest";
import { newId } from "../../../src/lib/ids";
import {
  api,
  createAccount,
  createCustomer,
  createService,
  insertBooking,
  json,
  utc,
  validationError,
} from "../../support/api";
import { at, book, bookingBody, businessWithCustomer } from "../../support/bookings";
import { expectUnauthorized, revokedKey } from "../../support/security";

/** Ids of the bookings a list request returns, in order. */
async function listIds(key: string, query = ""): Promise<string[]> {
  const res = await api("GET", `/bookings${query}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((b: { id: string }) => b.id);
}

describe("happy", () => {
  it("lists newest appointment first, then id descending on equal start times", async () => {
    const s = await businessWithCustomer();
    const base = { serviceId: s.serviceId, customerId: s.customerId };
    const t0 = Date.parse("2026-12-01T09:00:00Z");
    // Ids sort by their timestamp part; insert in an order that is neither the expected one nor its reverse.
    const tieLow = newId("booking", t0);
    const tieHigh = newId("booking", t0 + 60_000);
    const rows: { id: string; startTime: string }[] = [
      { id: tieLow, startTime: utc("2026-12-02T10:00:00Z") },
      { id: newId("booking", t0 + 1), startTime: utc("2026-12-03T10:00:00Z") },
      { id: newId("booking", t0 + 2), startTime: utc("2026-12-01T10:00:00Z") },
      { id: tieHigh, startTime: utc("2026-12-02T10:00:00Z") },
    ];
    for (const row of rows) await insertBooking(s.businessId, { ...base, ...row });
    expect(await listIds(s.apiKey)).toEqual([rows[1]?.id, tieHigh, tieLow, rows[2]?.id]);
  });

  it("filters by status", async () => {
    const s = await businessWithCustomer();
    const base = { serviceId: s.serviceId, customerId: s.customerId };
    const confirmed = await insertBooking(s.businessId, { ...base, startTime: utc("2026-12-01T09:00:00Z") });
    const cancelled = await insertBooking(s.businessId, {
      ...base,
      startTime: utc("2026-12-01T10:00:00Z"),
      status: "CANCELLED",
      cancelledAt: new Date().toISOString(),
      cancellationReason: "Sick",
    });
    const pending = await insertBooking(s.businessId, {
      ...base,
      startTime: utc("2026-12-01T11:00:00Z"),
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
    const s = await businessWithCustomer();
    const otherService = (await createService(s.apiKey, { name: "Other" })).id;
    const otherCustomer = (await createCustomer(s.apiKey, { name: "Grace" })).id;
    const a = await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: utc("2026-12-01T09:00:00Z"),
    });
    const b = await insertBooking(s.businessId, {
      serviceId: otherService,
      customerId: s.customerId,
      startTime: utc("2026-12-01T10:00:00Z"),
    });
    const c = await insertBooking(s.businessId, {
      serviceId: otherService,
      customerId: otherCustomer,
      startTime: utc("2026-12-01T11:00:00Z"),
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
    const s = await businessWithCustomer();
    const base = { serviceId: s.serviceId, customerId: s.customerId };
    const nine = await insertBooking(s.businessId, { ...base, startTime: utc("2026-12-01T09:00:00Z") });
    const ten = await insertBooking(s.businessId, { ...base, startTime: utc("2026-12-01T10:00:00Z") });
    const eleven = await insertBooking(s.businessId, { ...base, startTime: utc("2026-12-01T11:00:00Z") });
    expect(await listIds(s.apiKey, "?from=2026-12-01T10:00:00Z")).toEqual([eleven.id, ten.id]);
    expect(await listIds(s.apiKey, "?to=2026-12-01T10:00:00Z")).toEqual([nine.id]);
    expect(await listIds(s.apiKey, "?from=2026-12-01T09:30:00Z&to=2026-12-01T11:00:00Z")).toEqual([ten.id]);
    expect(await listIds(s.apiKey, "?from=2026-12-01T09:59:59.999Z&to=2026-12-01T10:00:00.001Z")).toEqual([ten.id]);
    // A booking that started before `from` but runs past it is not included: the filter is on startTime.
    expect(await listIds(s.apiKey, "?from=2026-12-01T09:15:00Z&to=2026-12-01T10:00:00Z")).toEqual([]);
  });

  it("a booking made through the API is listed at once, in the envelope with a Link that keeps the filters", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const first = await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    const second = await book(apiKey, bookingBody(service.id, at(2, "11:00")));
    const res = await api("GET", `/bookings?serviceId=${service.id}&limit=1`, { key: apiKey });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      data: [second],
      pagination: {
        page: 1,
        limit: 1,
        total: 2,
        totalPages: 2,
        hasMore: true,
        nextCursor: expect.any(String),
        prevCursor: null,
      },
    });
    expect(res.headers.get("Link")).toContain(`</api/v1/bookings?serviceId=${service.id}&limit=1&page=2>; rel="next"`);
    expect(
      (await json(await api("GET", `/bookings?serviceId=${service.id}&limit=1&page=2`, { key: apiKey }))).data,
    ).toEqual([first]);
  });
});

describe("error", () => {
  it.each([
    ["an unknown status", "?status=BOGUS", "status"],
    ["a lower-case status", "?status=confirmed", "status"],
    ["from with an offset", `?from=${encodeURIComponent("2026-12-01T10:00:00+01:00")}`, "from"],
    ["from without Z", "?from=2026-12-01T10:00:00", "from"],
    ["to as a date only", "?to=2026-12-01", "to"],
    ["an impossible date", "?from=2026-02-30T10:00:00Z", "from"],
    ["an empty serviceId", "?serviceId=", "serviceId"],
    ["conflicted other than true or false", "?conflicted=yes", "conflicted"],
  ])("rejects %s with 422", async (_, query, path) => {
    const s = await businessWithCustomer();
    await validationError(await api("GET", `/bookings${query}`, { key: s.apiKey }), path);
  });

  it("from not before to is a 422 on to", async () => {
    const s = await businessWithCustomer();
    await validationError(
      await api("GET", "/bookings?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z", { key: s.apiKey }),
      "to",
    );
    await validationError(
      await api("GET", "/bookings?from=2026-12-01T00:00:00Z&to=2026-12-01T00:00:00Z", { key: s.apiKey }),
      "to",
    );
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/bookings"), false);
  });

  it("a revoked key gets a 401 and no bookings", async () => {
    const s = await businessWithCustomer();
    await insertBooking(s.businessId, {
      serviceId: s.serviceId,
      customerId: s.customerId,
      startTime: utc("2026-12-01T10:00:00Z"),
      customerName: "Zelda Quixotewright",
    });
    const res = await api("GET", "/bookings", { key: await revokedKey(s.businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("another business sees none of the bookings, even filtering by the owner's ids", async () => {
    const owner = await businessWithCustomer();
    const other = await createAccount("Other");
    const row = await insertBooking(owner.businessId, {
      serviceId: owner.serviceId,
      customerId: owner.customerId,
      startTime: utc("2026-12-01T10:00:00Z"),
    });
    expect(await listIds(other.apiKey)).toEqual([]);
    expect(await listIds(other.apiKey, `?serviceId=${owner.serviceId}`)).toEqual([]);
    expect(await listIds(other.apiKey, `?customerId=${owner.customerId}`)).toEqual([]);
    expect(await listIds(owner.apiKey)).toEqual([row.id]);
  });
});
