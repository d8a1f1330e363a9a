/**
 * POST /bookings: the created booking, the customer upsert, and every refusal — each refusal
 * must leave D1 (bookings, customers) and the service's calendar exactly as they were.
 */
import { describe, expect, it } from "vitest";
import {
  api,
  bookingFields,
  createAccount,
  createCustomer,
  createService,
  json,
  problem,
  type TestAccount,
  utc,
} from "../support/api";
import {
  at,
  availability,
  book,
  bookingBody,
  calendarStub,
  d1Bookings,
  d1Counts,
  dayOf,
  plus,
  postBooking,
} from "../support/bookings";

/** A fresh business with one service (Mon–Sun 09:00–17:00 UTC, 30 minutes unless overridden). */
async function setup(serviceOverrides: Record<string, unknown> = {}) {
  const account = await createAccount();
  const service = await createService(account.apiKey, serviceOverrides);
  return { ...account, service, serviceId: service.id as string };
}

/** Everything a refused create could have touched: D1 counts and rows, the calendar, availability. */
async function observe(s: TestAccount & { serviceId: string }) {
  const customers = await json(await api("GET", "/customers?limit=100", { key: s.apiKey }));
  return {
    counts: await d1Counts(s.businessId),
    customers: customers.data,
    bookings: await d1Bookings(s.businessId),
    calendar: await calendarStub(s.businessId, s.serviceId).snapshot(),
    slots: (await availability(s.apiKey, s.serviceId, `${dayOf(2)}T00:00:00Z`, `${dayOf(3)}T00:00:00Z`)).slots,
  };
}

describe("happy", () => {
  it("201 with Location and the booking in its public shape, CONFIRMED", async () => {
    const s = await setup();
    const startTime = at(2, "10:00");
    const res = await postBooking(
      s.apiKey,
      bookingBody(s.serviceId, startTime, {
        customerName: "Ada Lovelace",
        customerEmail: "ada@example.com",
        customerPhone: "+49 30 1234567",
        notes: "First visit.",
      }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const booking = await json(res);
    expect(res.headers.get("Location")).toBe(`/api/v1/bookings/${booking.id}`);
    expect(Object.keys(booking).sort()).toEqual(bookingFields);
    expect(booking).toEqual({
      id: expect.stringMatching(/^bkg_[0-9a-z]{26}$/),
      serviceId: s.serviceId,
      providerId: null,
      providerIds: [],
      resourceIds: [],
      customerId: expect.stringMatching(/^cus_[0-9a-z]{26}$/),
      customerName: "Ada Lovelace",
      customerEmail: "ada@example.com",
      customerPhone: "+49 30 1234567",
      startTime: utc(startTime),
      endTime: utc(plus(startTime, 30)),
      notes: "First visit.",
      answers: {},
      appointmentId: null,
      seriesId: null,
      status: "CONFIRMED",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: booking.createdAt,
      cancelledAt: null,
      cancellationReason: null,
      conflicts: [],
      manageUrl: `http://api.test/api/v1/manage/${booking.id}.${booking.manageUrl.split(".").at(-1)}`,
    });
    expect(booking.manageUrl).toMatch(/\.[A-Za-z0-9_-]{43}$/);
  });

  it("the booking is readable at once: GET /bookings/{id}, GET /bookings and D1", async () => {
    const s = await setup();
    const created = await book(s.apiKey, bookingBody(s.serviceId, at(2, "11:00")));

    const one = await api("GET", `/bookings/${created.id}`, { key: s.apiKey });
    expect(one.status).toBe(200);
    expect(await json(one)).toEqual(created);

    const list = await json(await api("GET", "/bookings", { key: s.apiKey }));
    expect(list.pagination.total).toBe(1);
    expect(list.data).toEqual([created]);

    const rows = await d1Bookings(s.businessId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created.id, status: "CONFIRMED", version: 1, customerId: created.customerId });

    const customer = await api("GET", `/customers/${created.customerId}`, { key: s.apiKey });
    expect(customer.status).toBe(200);
    expect(await json(customer)).toMatchObject({ id: created.customerId, email: created.customerEmail });
  });

  it("a service that requires confirmation books PENDING", async () => {
    const s = await setup({ requiresConfirmation: true });
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    expect(booking.status).toBe("PENDING");
    expect((await d1Bookings(s.businessId))[0]?.status).toBe("PENDING");
  });

  it("PENDING holds capacity like CONFIRMED", async () => {
    const s = await setup({ requiresConfirmation: true });
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const second = await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    expect((await problem(second, 409, "slot_unavailable")).reason).toBe("fully_booked");
  });

  it("accepts fractional seconds and stores the canonical instant", async () => {
    const s = await setup();
    const booking = await book(
      s.apiKey,
      bookingBody(s.serviceId, `${dayOf(2)}T10:00:00.000Z`, { endTime: `${dayOf(2)}T10:30:00.000Z` }),
    );
    expect(booking.startTime).toBe(`${dayOf(2)}T10:00:00.000Z`);
    expect(booking.endTime).toBe(`${dayOf(2)}T10:30:00.000Z`);
  });

  it("upserts the customer by e-mail, case-insensitively: one customer, one id", async () => {
    const s = await setup();
    const first = await book(
      s.apiKey,
      bookingBody(s.serviceId, at(2, "10:00"), { customerEmail: "ada@example.com", customerName: "Ada" }),
    );
    const second = await book(
      s.apiKey,
      bookingBody(s.serviceId, at(2, "11:00"), { customerEmail: "ADA@Example.COM", customerName: "Ada Lovelace" }),
    );
    expect(second.customerId).toBe(first.customerId);
    const customers = await json(await api("GET", "/customers", { key: s.apiKey }));
    expect(customers.pagination.total).toBe(1);
    expect(customers.data[0].id).toBe(first.customerId);
    expect((await d1Counts(s.businessId)).customers).toBe(1);
    const rows = await d1Bookings(s.businessId);
    expect(rows.map((r) => r.customerId)).toEqual([first.customerId, first.customerId]);
  });

  it("reuses a customer created through POST /customers", async () => {
    const s = await setup();
    const customer = await createCustomer(s.apiKey, { email: "grace@example.com", name: "Grace Hopper" });
    const booking = await book(
      s.apiKey,
      bookingBody(s.serviceId, at(2, "10:00"), { customerEmail: "Grace@Example.com" }),
    );
    expect(booking.customerId).toBe(customer.id);
    expect((await d1Counts(s.businessId)).customers).toBe(1);
  });

  it("different e-mails are different customers", async () => {
    const s = await setup();
    const a = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const b = await book(s.apiKey, bookingBody(s.serviceId, at(2, "11:00")));
    expect(a.customerId).not.toBe(b.customerId);
    expect((await d1Counts(s.businessId)).customers).toBe(2);
  });

  it("the slot shows as booked in the availability calendar", async () => {
    const s = await setup();
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const { slots } = await availability(s.apiKey, s.serviceId, at(2, "09:30"), at(2, "11:00"));
    expect(slots.map((x: { booked: number; remaining: number }) => [x.booked, x.remaining])).toEqual([
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
  });
});

type Case = {
  name: string;
  service?: Record<string, unknown>;
  /** The request body, built from a valid one. */
  body: (valid: Record<string, unknown>) => unknown;
  status: number;
  code: string;
  path?: string;
  reason?: string;
};

const without = (field: string) => (valid: Record<string, unknown>) => {
  const { [field]: _omitted, ...rest } = valid;
  return rest;
};
const withFields = (fields: Record<string, unknown>) => (valid: Record<string, unknown>) => ({ ...valid, ...fields });
const startingAt = (startTime: string, minutes = 30) => withFields({ startTime, endTime: plus(startTime, minutes) });

const badBodies: Case[] = [
  ...["serviceId", "customerName", "customerEmail", "startTime", "endTime"].map(
    (field): Case => ({
      name: `missing ${field}`,
      body: without(field),
      status: 422,
      code: "validation_failed",
      path: field,
    }),
  ),
  {
    name: "an unknown field",
    body: withFields({ foo: "bar" }),
    status: 422,
    code: "validation_failed",
    path: "foo",
  },
  {
    name: "a client-chosen status",
    body: withFields({ status: "CONFIRMED" }),
    status: 422,
    code: "validation_failed",
    path: "status",
  },
  {
    name: "serviceId as a number",
    body: withFields({ serviceId: 42 }),
    status: 422,
    code: "validation_failed",
    path: "serviceId",
  },
  {
    name: "customerName as a number",
    body: withFields({ customerName: 123 }),
    status: 422,
    code: "validation_failed",
    path: "customerName",
  },
  {
    name: "a blank customerName",
    body: withFields({ customerName: "   " }),
    status: 422,
    code: "validation_failed",
    path: "customerName",
  },
  {
    name: "a customerEmail that is no e-mail",
    body: withFields({ customerEmail: "not-an-email" }),
    status: 422,
    code: "validation_failed",
    path: "customerEmail",
  },
  {
    name: "a customerPhone with letters",
    body: withFields({ customerPhone: "call me maybe" }),
    status: 422,
    code: "validation_failed",
    path: "customerPhone",
  },
  {
    name: "startTime as epoch milliseconds",
    body: (v) => ({ ...v, startTime: Date.parse(v.startTime as string) }),
    status: 422,
    code: "validation_failed",
    path: "startTime",
  },
  {
    name: "endTime null",
    body: withFields({ endTime: null }),
    status: 422,
    code: "validation_failed",
    path: "endTime",
  },
  {
    name: "notes as an object",
    body: withFields({ notes: {} }),
    status: 422,
    code: "validation_failed",
    path: "notes",
  },
  { name: "an array body", body: () => [], status: 422, code: "validation_failed" },
  {
    name: "startTime with an offset (+01:00)",
    body: (v) => ({ ...v, startTime: `${(v.startTime as string).slice(0, 19)}+01:00` }),
    status: 422,
    code: "validation_failed",
    path: "startTime",
  },
  {
    name: "startTime without Z",
    body: (v) => ({ ...v, startTime: (v.startTime as string).slice(0, 19) }),
    status: 422,
    code: "validation_failed",
    path: "startTime",
  },
  {
    name: "an impossible date (February 30)",
    body: withFields({ startTime: "2027-02-30T10:00:00Z", endTime: "2027-02-30T10:30:00Z" }),
    status: 422,
    code: "validation_failed",
    path: "startTime",
  },
  {
    name: "endTime before startTime",
    body: startingAt(at(2, "10:00"), -30),
    status: 422,
    code: "validation_failed",
    path: "endTime",
    reason: "end_not_after_start",
  },
  {
    name: "endTime equal to startTime",
    body: startingAt(at(2, "10:00"), 0),
    status: 422,
    code: "validation_failed",
    path: "endTime",
    reason: "end_not_after_start",
  },
  {
    name: "the wrong duration",
    body: startingAt(at(2, "10:00"), 45),
    status: 422,
    code: "validation_failed",
    path: "endTime",
    reason: "wrong_duration",
  },
  {
    name: "a start in the past",
    body: startingAt(at(-1, "10:00")),
    status: 422,
    code: "validation_failed",
    path: "startTime",
    reason: "in_the_past",
  },
  {
    name: "a start inside minNoticeMinutes",
    service: { minNoticeMinutes: 3 * 24 * 60 },
    body: startingAt(at(2, "10:00")),
    status: 422,
    code: "validation_failed",
    path: "startTime",
    reason: "too_soon",
  },
  {
    name: "a start beyond maxAdvanceDays",
    service: { maxAdvanceDays: 30 },
    body: startingAt(at(40, "10:00")),
    status: 422,
    code: "validation_failed",
    path: "startTime",
    reason: "too_far_ahead",
  },
  {
    name: "an unknown serviceId",
    body: withFields({ serviceId: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    status: 422,
    code: "service_not_found",
    path: "serviceId",
  },
  {
    name: "an inactive service",
    service: { active: false },
    body: (v) => v,
    status: 422,
    code: "service_inactive",
    path: "serviceId",
  },
  {
    name: "a start before opening (08:00)",
    body: startingAt(at(2, "08:00")),
    status: 409,
    code: "slot_unavailable",
    reason: "outside_working_hours",
  },
  {
    name: "an appointment that ends after closing (16:45)",
    body: startingAt(at(2, "16:45")),
    status: 409,
    code: "slot_unavailable",
    reason: "outside_working_hours",
  },
  {
    name: "a start off the slot grid (10:10)",
    body: startingAt(at(2, "10:10")),
    status: 409,
    code: "slot_unavailable",
    reason: "outside_working_hours",
  },
  {
    name: "a weekday without working hours",
    service: { weeklySchedule: {} },
    body: (v) => v,
    status: 409,
    code: "slot_unavailable",
    reason: "outside_working_hours",
  },
];

describe("error", () => {
  it.each(badBodies)("$name → $status $code, nothing written", async (c) => {
    const s = await setup(c.service);
    // One booking already exists, so "unchanged" is not trivially "empty"; its customer's e-mail is reused below.
    const existing = await book(
      s.apiKey,
      bookingBody(s.serviceId, at(2, "15:00"), { customerEmail: "ada@example.com", customerName: "Ada" }),
    ).catch(() => null);
    const before = await observe(s);

    const valid = bookingBody(s.serviceId, at(2, "10:00"), { customerEmail: "ada@example.com", customerName: "Eve" });
    const res = await postBooking(s.apiKey, c.body(valid));
    const body = await problem(res, c.status, c.code);
    if (c.path) expect(body.errors?.map((e: { path: string }) => e.path)).toContain(c.path);
    if (c.reason) expect(body.reason).toBe(c.reason);
    expect(body).toMatchObject({ status: c.status, instance: "/api/v1/bookings", requestId: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/SELECT|INSERT|stack/i);

    expect(await observe(s)).toEqual(before);
    // Active services got the seed booking; the refusal did not replace its customer's name.
    if (existing) expect(before.customers[0]).toMatchObject({ id: existing.customerId, name: "Ada" });
  });

  it("text/plain → 415, nothing written", async () => {
    const s = await setup();
    const before = await observe(s);
    const res = await api("POST", "/bookings", {
      key: s.apiKey,
      rawBody: JSON.stringify(bookingBody(s.serviceId, at(2, "10:00"))),
      headers: { "Content-Type": "text/plain" },
    });
    await problem(res, 415, "unsupported_media_type");
    expect(await observe(s)).toEqual(before);
  });

  it("no Content-Type → 415, nothing written", async () => {
    const s = await setup();
    const before = await observe(s);
    const res = await api("POST", "/bookings", {
      key: s.apiKey,
      rawBody: JSON.stringify(bookingBody(s.serviceId, at(2, "10:00"))),
    });
    await problem(res, 415, "unsupported_media_type");
    expect(await observe(s)).toEqual(before);
  });

  it("malformed JSON → 400 malformed_json, nothing written", async () => {
    const s = await setup();
    const before = await observe(s);
    const res = await api("POST", "/bookings", {
      key: s.apiKey,
      rawBody: `{"serviceId": "${s.serviceId}", "customerName": `,
      headers: { "Content-Type": "application/json" },
    });
    await problem(res, 400, "malformed_json");
    expect(await observe(s)).toEqual(before);
  });

  it("a body over 64 KiB → 413, nothing written", async () => {
    const s = await setup();
    const before = await observe(s);
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { notes: "x".repeat(70 * 1024) }));
    await problem(res, 413, "payload_too_large");
    expect(await observe(s)).toEqual(before);
  });

  it("a taken slot → 409 fully_booked, nothing written", async () => {
    const s = await setup();
    await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    const before = await observe(s);
    const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00")));
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe("fully_booked");
    expect(await observe(s)).toEqual(before);
  });
});

describe("security", () => {
  it("another business's service → 422 service_not_found, like an unknown id; neither business is touched", async () => {
    const a = await setup();
    const b = await setup();
    const beforeA = await observe(a);
    const beforeB = await observe(b);

    const foreign = await postBooking(b.apiKey, bookingBody(a.serviceId, at(2, "10:00")));
    const foreignBody = await problem(foreign, 422, "service_not_found");
    const unknown = await postBooking(b.apiKey, bookingBody("svc_01jd3k5v7q8r9s0t1u2v3w4x5y", at(2, "10:00")));
    const unknownBody = await problem(unknown, 422, "service_not_found");
    expect(foreignBody.errors).toEqual(unknownBody.errors);
    expect(foreignBody.title).toBe(unknownBody.title);

    expect(await observe(a)).toEqual(beforeA);
    expect(await observe(b)).toEqual(beforeB);
  });

  it("without an API key → 401, nothing written", async () => {
    const s = await setup();
    const before = await observe(s);
    const res = await postBooking("", bookingBody(s.serviceId, at(2, "10:00")));
    await problem(res, 401, "unauthorized");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer realm="api"/);
    expect(await observe(s)).toEqual(before);
  });

  it.each(["id", "businessId", "customerId", "createdAt"])(
    "a client-chosen %s is rejected (no mass assignment)",
    async (field) => {
      const s = await setup();
      const before = await observe(s);
      const res = await postBooking(
        s.apiKey,
        bookingBody(s.serviceId, at(2, "10:00"), { [field]: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
      );
      await problem(res, 422, "validation_failed");
      expect(await observe(s)).toEqual(before);
    },
  );

  it("a booking of one business is invisible to another", async () => {
    const a = await setup();
    const b = await setup();
    const booking = await book(a.apiKey, bookingBody(a.serviceId, at(2, "10:00")));
    await problem(await api("GET", `/bookings/${booking.id}`, { key: b.apiKey }), 404, "not_found");
    const list = await json(await api("GET", "/bookings", { key: b.apiKey }));
    expect(list.pagination.total).toBe(0);
  });

  it("the same e-mail in two businesses makes two customers; neither sees the other's", async () => {
    const a = await setup();
    const b = await setup();
    const inA = await book(a.apiKey, bookingBody(a.serviceId, at(2, "10:00"), { customerEmail: "shared@example.com" }));
    const inB = await book(b.apiKey, bookingBody(b.serviceId, at(2, "10:00"), { customerEmail: "shared@example.com" }));
    expect(inB.customerId).not.toBe(inA.customerId);
    const listB = await json(await api("GET", "/customers", { key: b.apiKey }));
    expect(listB.data.map((c: { id: string }) => c.id)).toEqual([inB.customerId]);
    await problem(await api("GET", `/customers/${inA.customerId}`, { key: b.apiKey }), 404, "not_found");
  });

  it("same slot, two businesses' services: each has its own calendar", async () => {
    const a = await setup();
    const b = await setup();
    await book(a.apiKey, bookingBody(a.serviceId, at(2, "10:00")));
    await book(b.apiKey, bookingBody(b.serviceId, at(2, "10:00")));
    expect((await d1Counts(a.businessId)).bookings).toBe(1);
    expect((await d1Counts(b.businessId)).bookings).toBe(1);
  });
});
