/**
 * Visits (`/appointments`): several services back to back, booked all or none, read back and
 * cancelled, through the typed client against `npm run dev`, every answer checked against the document.
 * Every request goes with the demo business's second key (`secondApi`, issued by global-setup.ts):
 * a write budget of its own, shared only with the series file.
 */
import { describe, expect, it } from "vitest";
import {
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  origin,
  type Problem,
  plusMinutes,
  raw,
  type Schemas,
  type Service,
  secondApi,
  secondApiKey,
  unique,
  utcAt,
} from "./support";

type CreateAppointment = Schemas["CreateAppointment"];
/** A refusal names the segment that refused (0-based) beside its reason. */
type SegmentProblem = Problem & { segment?: number };

/** A visit body for these services, the first starting at `startTime`. */
function visitBody(startTime: string, services: Service[], overrides: Partial<CreateAppointment> = {}) {
  return {
    customerName: "Grace Hopper",
    customerEmail: `${unique("grace")}@example.com`,
    startTime,
    segments: services.map((s) => ({ serviceId: s.id })),
    ...overrides,
  } satisfies CreateAppointment;
}

/** Whether `service`'s slot at `startTime` can still be booked. */
async function bookableAt(service: Service, startTime: string): Promise<boolean | undefined> {
  const { data } = await secondApi.GET("/services/{id}/availability", {
    params: {
      path: { id: service.id },
      query: { from: startTime, to: plusMinutes(startTime, service.slotIntervalMinutes) },
    },
  });
  return data?.slots.find((s) => s.startTime === startTime)?.bookable;
}

describe("POST /appointments → GET /appointments/{id}", () => {
  it("books a cut then a colour back to back: 201, Location, each segment a booking of the visit", async () => {
    const cut = await createOpenService({ name: unique("E2E cut") }, secondApi);
    const colour = await createOpenService({ name: unique("E2E colour"), durationMinutes: 60 }, secondApi);
    const startTime = utcAt(11, 10);
    const body = visitBody(startTime, [cut, colour], { notes: "Cut, then colour." });
    const { data, error, response } = await secondApi.POST("/appointments", { body });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(201);
    const visit = data as Schemas["Appointment"];
    expect(visit.id).toMatch(/^apt_[0-9a-z]{26}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/appointments/${visit.id}`);

    const [first, second] = visit.bookings;
    expect(visit.bookings).toHaveLength(2);
    expect(first).toMatchObject({
      appointmentId: visit.id,
      serviceId: cut.id,
      status: "CONFIRMED",
      startTime,
      endTime: utcAt(11, 10, 30),
      customerEmail: body.customerEmail,
      notes: "Cut, then colour.",
    });
    expect(second).toMatchObject({ appointmentId: visit.id, serviceId: colour.id, status: "CONFIRMED" });
    // The second segment starts where the first ends and lasts its own service's duration.
    expect(second?.startTime).toBe(first?.endTime);
    expect(second?.endTime).toBe(utcAt(11, 11, 30));
    expect(second?.customerId).toBe(first?.customerId);
    expect(visit).toMatchObject({ startTime, endTime: second?.endTime, status: "CONFIRMED" });

    // Read back: at its Location, and each segment as a booking of its own.
    const read = await secondApi.GET("/appointments/{id}", { params: { path: { id: visit.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(visit);
    const located = await raw("GET", "/appointments/{id}", { params: { id: visit.id }, key: secondApiKey });
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(visit);
    const segment = await secondApi.GET("/bookings/{id}", { params: { path: { id: second?.id ?? "" } } });
    expect(segment.data).toEqual(second);
    // Both seats are taken (capacity 1).
    expect(await bookableAt(cut, startTime)).toBe(false);
    expect(await bookableAt(colour, utcAt(11, 10, 30))).toBe(false);
  });

  it("replays the answer for the same Idempotency-Key and books nothing more", async () => {
    const service = await createOpenService({}, secondApi);
    const body = visitBody(utcAt(11, 14), [service]);
    const key = unique("visit");
    const first = await secondApi.POST("/appointments", { params: { header: { "idempotency-key": key } }, body });
    const again = await secondApi.POST("/appointments", { params: { header: { "idempotency-key": key } }, body });
    expect([first.response.status, again.response.status]).toEqual([201, 201]);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(first.data);
    const theirs = await secondApi.GET("/bookings", { params: { query: { serviceId: service.id } } });
    expect(theirs.data?.data.map((b) => b.id)).toEqual(first.data?.bookings.map((b) => b.id));
  });

  it("is not found for an id the business does not have", async () => {
    const { error, response } = await secondApi.GET("/appointments/{id}", {
      params: { path: { id: "apt_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/appointments/apt_00000000000000000000000000");
  });
});

describe("POST /appointments refused", () => {
  it("409 naming the second segment when its service is fully booked then; nothing of the visit is held", async () => {
    const cut = await createOpenService({ name: unique("E2E cut") }, secondApi);
    const colour = await createOpenService({ name: unique("E2E colour") }, secondApi);
    const startTime = utcAt(11, 12);
    // The colour's only seat at 12:30, where the visit's second segment would start, is taken.
    await createBooking(bookingBody(colour, utcAt(11, 12, 30)), secondApi);
    const { error, response } = await secondApi.POST("/appointments", { body: visitBody(startTime, [cut, colour]) });
    const problem: SegmentProblem = expectProblem(response, error, 409, "slot_unavailable", "/api/v1/appointments");
    expect(problem).toMatchObject({ segment: 1, reason: "fully_booked" });
    // All or none: the first segment's seat is free again, and neither service has a booking of it.
    expect(await bookableAt(cut, startTime)).toBe(true);
    const cuts = await secondApi.GET("/bookings", { params: { query: { serviceId: cut.id } } });
    expect(cuts.data?.data).toEqual([]);
  });

  it("422 naming segments.1.serviceId for a service the business does not have", async () => {
    const cut = await createOpenService({}, secondApi);
    const body = visitBody(utcAt(11, 16), [cut]);
    body.segments.push({ serviceId: "svc_00000000000000000000000000" });
    const { error, response } = await secondApi.POST("/appointments", { body });
    const problem = expectProblem(response, error, 422, "service_not_found", "/api/v1/appointments");
    expect(problem.errors?.map((e) => e.path)).toEqual(["segments.1.serviceId"]);
    expect(await bookableAt(cut, utcAt(11, 16))).toBe(true);
  });

  it("422 naming the field for a visit with no segments", async () => {
    const { error, response } = await secondApi.POST("/appointments", { body: visitBody(utcAt(11, 16), []) });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain("segments");
  });
});

describe("POST /appointments/{id}/cancel", () => {
  it("cancels every segment (200, all CANCELLED, each seat free again); a second cancel is 409 invalid_transition", async () => {
    const cut = await createOpenService({ name: unique("E2E cut") }, secondApi);
    const colour = await createOpenService({ name: unique("E2E colour"), durationMinutes: 60 }, secondApi);
    const startTime = utcAt(11, 18);
    const created = await secondApi.POST("/appointments", { body: visitBody(startTime, [cut, colour]) });
    expect(created.response.status).toBe(201);
    const id = created.data?.id ?? "";

    const { data, response } = await secondApi.POST("/appointments/{id}/cancel", {
      params: { path: { id } },
      body: { reason: "Flu." },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id, status: "CANCELLED", startTime });
    expect(data?.bookings.map((b) => b.id)).toEqual(created.data?.bookings.map((b) => b.id));
    for (const booking of data?.bookings ?? []) {
      expect(booking).toMatchObject({
        appointmentId: id,
        status: "CANCELLED",
        cancellationReason: "Flu.",
        manageUrl: null,
      });
    }
    const read = await secondApi.GET("/appointments/{id}", { params: { path: { id } } });
    expect(read.data).toEqual(data);
    expect(await bookableAt(cut, startTime)).toBe(true);
    expect(await bookableAt(colour, utcAt(11, 18, 30))).toBe(true);

    const again = await secondApi.POST("/appointments/{id}/cancel", { params: { path: { id } } });
    expectProblem(again.response, again.error, 409, "invalid_transition", `/api/v1/appointments/${id}/cancel`);
    const after = await secondApi.GET("/appointments/{id}", { params: { path: { id } } });
    expect(after.data).toEqual(data);
  });

  it("is not found for an id the business does not have", async () => {
    const { error, response } = await secondApi.POST("/appointments/{id}/cancel", {
      params: { path: { id: "apt_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found");
  });
});
