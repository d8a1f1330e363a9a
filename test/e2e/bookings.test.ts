/** Bookings: list, create (availability, idempotency), get, status changes and cancellation. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  type Booking,
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  origin,
  pageOf,
  parseLinks,
  plusMinutes,
  raw,
  type Service,
  unique,
  utcAt,
} from "./support";

const newest = (a: Booking, b: Booking) =>
  a.startTime === b.startTime ? (a.id < b.id ? 1 : -1) : Date.parse(a.startTime) < Date.parse(b.startTime) ? 1 : -1;

describe("GET /bookings", () => {
  it("lists the seeded bookings, newest appointment first, with Link", async () => {
    const { data, response } = await api.GET("/bookings", { params: { query: { limit: 100 } } });
    expect(response.status).toBe(200);
    expect(data?.pagination.total).toBeGreaterThanOrEqual(6);
    const bookings = data?.data ?? [];
    expect(bookings.map((b) => b.id)).toEqual([...bookings].sort(newest).map((b) => b.id));
    expect(bookings.map((b) => b.customerEmail)).toEqual(
      expect.arrayContaining(["ada@example.com", "grace@example.com", "alan@example.com"]),
    );
    expect(parseLinks(response.headers.get("link")).first).toBeDefined();
  });

  it("pages with first, prev, next and last links that keep the filters", async () => {
    const { data, response } = await api.GET("/bookings", {
      params: { query: { page: 2, limit: 2, status: "CONFIRMED" } },
    });
    expect(response.status).toBe(200);
    expect(data?.pagination).toMatchObject({ page: 2, limit: 2 });
    expect(data?.data.every((b) => b.status === "CONFIRMED")).toBe(true);
    const links = parseLinks(response.headers.get("link"));
    expect(Object.keys(links)).toEqual(expect.arrayContaining(["first", "prev", "last"]));
    expect(pageOf(links.prev)).toEqual({ page: 1, limit: 2 });
    expect(pageOf(links.last).page).toBe(data?.pagination.totalPages);
    for (const target of Object.values(links)) {
      expect(new URL(target, origin).pathname).toBe("/api/v1/bookings");
      expect(new URL(target, origin).searchParams.get("status")).toBe("CONFIRMED");
    }
  });

  it("walks a service's bookings by cursor, forward with after and back with before, Link carrying them", async () => {
    const service = await createOpenService();
    const made: Booking[] = [];
    for (const day of [6, 7, 8, 9, 10]) made.push(await createBooking(bookingBody(service, utcAt(day, 9))));
    const expected = [...made].sort(newest).map((b) => b.id);

    const seen: string[] = [];
    let after: string | undefined;
    let before = "";
    do {
      const onCursor = after !== undefined;
      const { data, response } = await api.GET("/bookings", {
        params: { query: { serviceId: service.id, limit: 2, after } },
      });
      expect(response.status).toBe(200);
      seen.push(...(data?.data.map((b) => b.id) ?? []));
      expect(data?.pagination).toMatchObject({ total: 5, totalPages: 3, page: onCursor ? null : 1 });
      const next = parseLinks(response.headers.get("link")).next;
      after = data?.pagination.nextCursor ?? undefined;
      before = data?.pagination.prevCursor ?? "";
      // A page by number links pages by number; a cursor page links cursors.
      if (after && onCursor) expect(new URL(next ?? "", origin).searchParams.get("after")).toBe(after);
    } while (after);
    expect(seen).toEqual(expected);

    const back = await api.GET("/bookings", { params: { query: { serviceId: service.id, limit: 2, before } } });
    expect(back.data?.data.map((b) => b.id)).toEqual(expected.slice(2, 4));

    const both = await api.GET("/bookings", { params: { query: { after: before, before } } });
    expectProblem(both.response, both.error, 422, "validation_failed");
  });

  it("filters by service, customer and time range", async () => {
    const service = await createOpenService();
    const first = await createBooking(bookingBody(service, utcAt(6, 9)));
    const second = await createBooking(bookingBody(service, utcAt(7, 9)));

    const byService = await api.GET("/bookings", { params: { query: { serviceId: service.id } } });
    expect(byService.data?.data.map((b) => b.id)).toEqual([second.id, first.id]);

    const byCustomer = await api.GET("/bookings", { params: { query: { customerId: first.customerId } } });
    expect(byCustomer.data?.data.map((b) => b.id)).toEqual([first.id]);

    const byRange = await api.GET("/bookings", {
      params: { query: { serviceId: service.id, from: utcAt(7, 0), to: utcAt(8, 0) } },
    });
    expect(byRange.data?.data.map((b) => b.id)).toEqual([second.id]);
  });

  it("answers 422 for an unknown status", async () => {
    const response = await raw("GET", "/bookings", { query: "status=LOST" });
    const problem = expectProblem(response, await response.json(), 422, "validation_failed", "/api/v1/bookings");
    expect(problem.errors?.map((e) => e.path)).toContain("status");
  });

  it("answers 422 for a from time with an offset", async () => {
    const { error, response } = await api.GET("/bookings", {
      params: { query: { from: "2026-12-01T10:00:00+01:00" } },
    });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("POST /bookings", () => {
  let service: Service;
  beforeAll(async () => {
    service = await createOpenService();
  });

  it("books a free slot of a seeded service for a seeded customer: 201, Location", async () => {
    const services = await api.GET("/services", { params: { query: { limit: 100 } } });
    const haircut = services.data?.data.find((s) => s.name === "Haircut") as Service;
    const availability = await api.GET("/services/{id}/availability", { params: { path: { id: haircut.id } } });
    const slot = availability.data?.slots.find((s) => s.bookable && s.remaining > 0);
    expect(slot, "a bookable Haircut slot in the next 7 days").toBeDefined();
    const ada = await api.GET("/customers", { params: { query: { search: "ada@example.com" } } });

    const { data, response } = await api.POST("/bookings", {
      body: {
        serviceId: haircut.id,
        customerName: "Ada Lovelace",
        customerEmail: "ada@example.com",
        customerPhone: "+44 20 7946 0018",
        startTime: slot?.startTime ?? "",
        endTime: slot?.endTime ?? "",
        notes: "Booked by the e2e suite.",
      },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      serviceId: haircut.id,
      customerId: ada.data?.data[0]?.id,
      customerEmail: "ada@example.com",
      status: "CONFIRMED",
      notes: "Booked by the e2e suite.",
      cancelledAt: null,
      cancellationReason: null,
    });
    expect(Date.parse(data?.startTime ?? "")).toBe(Date.parse(slot?.startTime ?? ""));
    expect(data?.id).toMatch(/^bkg_/);
    expect(response.headers.get("location")).toBe(`/api/v1/bookings/${data?.id}`);
    const located = await raw("GET", "/bookings/{id}", { params: { id: data?.id ?? "" } });
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(data);
  });

  it("creates the customer of a new e-mail", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(2, 8), { customerPhone: "+1 555 0100" }));
    const { data, response } = await api.GET("/customers/{id}", { params: { path: { id: booking.customerId } } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ email: booking.customerEmail, name: "Edsger Dijkstra", phone: "+1 555 0100" });
  });

  it("starts PENDING when the service requires confirmation", async () => {
    const confirmed = await createOpenService({ requiresConfirmation: true });
    const booking = await createBooking(bookingBody(confirmed, utcAt(2, 9)));
    expect(booking.status).toBe("PENDING");
  });

  it("replays an Idempotency-Key retry and refuses the key for another request", async () => {
    const key = unique("idem");
    const body = bookingBody(service, utcAt(2, 10));
    const first = await api.POST("/bookings", { body, params: { header: { "idempotency-key": key } } });
    expect(first.response.status).toBe(201);
    expect(first.response.headers.get("idempotent-replayed")).toBeNull();

    const again = await api.POST("/bookings", { body, params: { header: { "idempotency-key": key } } });
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get("location")).toBe(`/api/v1/bookings/${first.data?.id}`);

    const other = await api.POST("/bookings", {
      body: { ...body, startTime: utcAt(2, 11), endTime: utcAt(2, 11, 30) },
      params: { header: { "idempotency-key": key } },
    });
    expectProblem(other.response, other.error, 422, "idempotency_key_reused");
  });

  it("answers 409 slot_unavailable (fully_booked) for a taken slot", async () => {
    const start = utcAt(2, 12);
    await createBooking(bookingBody(service, start));
    const { error, response } = await api.POST("/bookings", { body: bookingBody(service, start) });
    const problem = expectProblem(response, error, 409, "slot_unavailable", "/api/v1/bookings");
    expect(problem.reason).toBe("fully_booked");
  });

  it("fills every seat of a slot before refusing", async () => {
    const group = await createOpenService({ capacity: 2 });
    const start = utcAt(2, 13);
    await createBooking(bookingBody(group, start));
    await createBooking(bookingBody(group, start));
    const { error, response } = await api.POST("/bookings", { body: bookingBody(group, start) });
    expect(expectProblem(response, error, 409, "slot_unavailable").reason).toBe("fully_booked");
  });

  it("answers 409 slot_unavailable (outside_working_hours) outside the schedule and off the slot grid", async () => {
    const office = await createOpenService({
      weeklySchedule: Object.fromEntries(
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [d, [{ start: "09:00", end: "17:00" }]]),
      ),
    });
    const late = await api.POST("/bookings", { body: bookingBody(office, utcAt(2, 20)) });
    expect(expectProblem(late.response, late.error, 409, "slot_unavailable").reason).toBe("outside_working_hours");
    const offGrid = await api.POST("/bookings", { body: bookingBody(office, utcAt(2, 10, 10)) });
    expect(expectProblem(offGrid.response, offGrid.error, 409, "slot_unavailable").reason).toBe(
      "outside_working_hours",
    );
  });

  it("answers 422 when the length is not the service's duration", async () => {
    const start = utcAt(2, 14);
    const { error, response } = await api.POST("/bookings", {
      body: bookingBody(service, start, { endTime: plusMinutes(start, 45) }),
    });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain("endTime");
  });

  it("answers 422 for a time in the past", async () => {
    const { error, response } = await api.POST("/bookings", { body: bookingBody(service, utcAt(-2, 10)) });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain("startTime");
  });

  it("answers 422 for times with an offset instead of Z", async () => {
    const { error, response } = await api.POST("/bookings", {
      body: bookingBody(service, utcAt(2, 15), {
        startTime: "2030-01-07T10:00:00+01:00",
        endTime: "2030-01-07T10:30:00+01:00",
      }),
    });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(expect.arrayContaining(["startTime", "endTime"]));
  });

  it("answers 422 for missing fields", async () => {
    const response = await raw("POST", "/bookings", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ serviceId: service.id }),
    });
    const problem = expectProblem(response, await response.json(), 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining(["customerName", "customerEmail", "startTime", "endTime"]),
    );
  });

  it("answers 422 service_not_found and service_inactive", async () => {
    const unknown = await api.POST("/bookings", {
      body: bookingBody(service, utcAt(2, 16), { serviceId: "svc_00000000000000000000000000" }),
    });
    expectProblem(unknown.response, unknown.error, 422, "service_not_found");

    const inactive = await createOpenService({ active: false });
    const refused = await api.POST("/bookings", { body: bookingBody(inactive, utcAt(2, 16)) });
    expectProblem(refused.response, refused.error, 422, "service_inactive");
  });
});

describe("GET /bookings/{id}", () => {
  it("returns a seeded booking", async () => {
    const list = await api.GET("/bookings", { params: { query: { limit: 1 } } });
    const seeded = list.data?.data[0] as Booking;
    const { data, response } = await api.GET("/bookings/{id}", { params: { path: { id: seeded.id } } });
    expect(response.status).toBe(200);
    expect(data).toEqual(seeded);
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.GET("/bookings/{id}", {
      params: { path: { id: "bkg_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/bookings/bkg_00000000000000000000000000");
  });

  it("answers 422 for an id longer than 64 characters", async () => {
    const { error, response } = await api.GET("/bookings/{id}", { params: { path: { id: "b".repeat(65) } } });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("PATCH /bookings/{id}", () => {
  let service: Service;
  beforeAll(async () => {
    service = await createOpenService();
  });

  it("changes the notes", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(3, 8), { notes: "Window seat." }));
    const { data, response } = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id } },
      body: { notes: "Aisle seat." },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: booking.id, notes: "Aisle seat.", status: "CONFIRMED" });
  });

  it("confirms a PENDING booking", async () => {
    const confirmed = await createOpenService({ requiresConfirmation: true });
    const booking = await createBooking(bookingBody(confirmed, utcAt(3, 9)));
    const { data, response } = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id } },
      body: { status: "CONFIRMED" },
    });
    expect(response.status).toBe(200);
    expect(data?.status).toBe("CONFIRMED");
  });

  it("refuses COMPLETED and NO_SHOW before the appointment starts (409); a terminal booking cannot change status", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(3, 10)));
    for (const status of ["COMPLETED", "NO_SHOW"] as const) {
      const early = await api.PATCH("/bookings/{id}", { params: { path: { id: booking.id } }, body: { status } });
      expectProblem(early.response, early.error, 409, "invalid_transition", `/api/v1/bookings/${booking.id}`);
    }
    const cancelled = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id } },
      body: { status: "CANCELLED" },
    });
    expect(cancelled.data?.status).toBe("CANCELLED");
    const back = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id } },
      body: { status: "CONFIRMED" },
    });
    expectProblem(back.response, back.error, 409, "invalid_transition", `/api/v1/bookings/${booking.id}`);
  });

  it("cancels with a reason through status CANCELLED", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(3, 11)));
    const { data } = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id } },
      body: { status: "CANCELLED", cancellationReason: "Double-booked elsewhere." },
    });
    expect(data).toMatchObject({ status: "CANCELLED", cancellationReason: "Double-booked elsewhere." });
    expect(data?.cancelledAt).toEqual(expect.any(String));
  });

  it("answers 422 for an empty change and for a reason without CANCELLED", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(3, 12)));
    const empty = await api.PATCH("/bookings/{id}", { params: { path: { id: booking.id } }, body: {} });
    expectProblem(empty.response, empty.error, 422, "validation_failed");
    const reason = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id } },
      body: { status: "COMPLETED", cancellationReason: "Why not." },
    });
    const problem = expectProblem(reason.response, reason.error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain("cancellationReason");
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.PATCH("/bookings/{id}", {
      params: { path: { id: "bkg_00000000000000000000000000" } },
      body: { notes: "Hello?" },
    });
    expectProblem(response, error, 404, "not_found");
  });
});

describe("POST /bookings/{id}/cancel", () => {
  let service: Service;
  beforeAll(async () => {
    service = await createOpenService();
  });

  it("cancels, frees the slot at once, and refuses a second cancel (409)", async () => {
    const start = utcAt(4, 10);
    const booking = await createBooking(bookingBody(service, start));
    const { data, response } = await api.POST("/bookings/{id}/cancel", {
      params: { path: { id: booking.id } },
      body: { reason: "Customer is ill." },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: booking.id, status: "CANCELLED", cancellationReason: "Customer is ill." });
    expect(Date.parse(data?.cancelledAt ?? "")).not.toBeNaN();

    const rebooked = await createBooking(bookingBody(service, start));
    expect(rebooked.status).toBe("CONFIRMED");

    const again = await api.POST("/bookings/{id}/cancel", { params: { path: { id: booking.id } } });
    expectProblem(again.response, again.error, 409, "invalid_transition", `/api/v1/bookings/${booking.id}/cancel`);
  });

  it("cancels without a body", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(4, 11)));
    const { data, response } = await api.POST("/bookings/{id}/cancel", { params: { path: { id: booking.id } } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ status: "CANCELLED", cancellationReason: null });
  });

  it("replays a cancel retried with the same Idempotency-Key", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(4, 12)));
    const key = unique("cancel");
    const init = { params: { path: { id: booking.id }, header: { "idempotency-key": key } }, body: {} };
    const first = await api.POST("/bookings/{id}/cancel", init);
    expect(first.response.status).toBe(200);
    const retry = await api.POST("/bookings/{id}/cancel", init);
    expect(retry.response.status).toBe(200);
    expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.data).toEqual(first.data);
  });

  it("answers 422 for an unknown field and an over-long reason", async () => {
    const booking = await createBooking(bookingBody(service, utcAt(4, 13)));
    const long = await api.POST("/bookings/{id}/cancel", {
      params: { path: { id: booking.id } },
      body: { reason: "x".repeat(501) },
    });
    expectProblem(long.response, long.error, 422, "validation_failed");
    const unknown = await raw("POST", "/bookings/{id}/cancel", {
      params: { id: booking.id },
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ why: "no" }),
    });
    expectProblem(unknown, await unknown.json(), 422, "validation_failed");
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.POST("/bookings/{id}/cancel", {
      params: { path: { id: "bkg_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found");
  });
});
