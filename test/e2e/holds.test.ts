/** Holds and reschedule through the typed client against `npm run dev`, every answer checked against the document. */
import { describe, expect, it } from "vitest";
import { api, bookingBody, createBooking, createOpenService, expectProblem, plusMinutes, utcAt } from "./support";

describe("POST /holds → POST /bookings with holdId", () => {
  it("keeps the seat, shows it as held, and books it", async () => {
    const service = await createOpenService();
    const startTime = utcAt(9, 10);
    const endTime = plusMinutes(startTime, 30);
    const placed = await api.POST("/holds", { body: { serviceId: service.id, startTime, endTime, ttlSeconds: 120 } });
    expect(placed.response.status).toBe(201);
    const hold = placed.data;
    expect(hold?.status).toBe("HELD");

    const slots = await api.GET("/services/{id}/availability", {
      params: { path: { id: service.id }, query: { from: startTime, to: endTime } },
    });
    expect(slots.data?.slots[0]).toMatchObject({ held: 1, remaining: 0, bookable: false });

    const booked = await api.POST("/bookings", {
      body: { holdId: hold?.id, customerName: "Barbara Liskov", customerEmail: "barbara@example.com" },
    });
    expect(booked.response.status).toBe(201);
    expect(booked.data?.startTime).toBe(hold?.startTime);
    const after = await api.GET("/holds/{id}", { params: { path: { id: hold?.id ?? "" } } });
    expect(after.data).toMatchObject({ status: "CONSUMED", bookingId: booked.data?.id });
  });

  it("a released hold frees the seat and cannot be booked", async () => {
    const service = await createOpenService();
    const startTime = utcAt(9, 12);
    const { data: hold } = await api.POST("/holds", {
      body: { serviceId: service.id, startTime, endTime: plusMinutes(startTime, 30) },
    });
    const released = await api.DELETE("/holds/{id}", { params: { path: { id: hold?.id ?? "" } } });
    expect(released.response.status).toBe(204);
    const again = await api.POST("/bookings", {
      body: { holdId: hold?.id, customerName: "Barbara Liskov", customerEmail: "barbara@example.com" },
    });
    expectProblem(again.response, again.error, 409, "hold_expired");
  });
});

describe("POST /bookings/{id}/reschedule", () => {
  it("moves a booking and refuses a move into a full slot", async () => {
    const service = await createOpenService();
    const mine = await createBooking(bookingBody(service, utcAt(9, 14)));
    const other = await createBooking(bookingBody(service, utcAt(9, 15)));
    const target = utcAt(9, 16);
    const moved = await api.POST("/bookings/{id}/reschedule", {
      params: { path: { id: mine.id } },
      body: { startTime: target, endTime: plusMinutes(target, 30) },
    });
    expect(moved.response.status).toBe(200);
    expect(moved.data).toMatchObject({ id: mine.id, status: "CONFIRMED", startTime: target });
    const refused = await api.POST("/bookings/{id}/reschedule", {
      params: { path: { id: mine.id } },
      body: { startTime: other.startTime, endTime: other.endTime },
    });
    expectProblem(refused.response, refused.error, 409, "slot_unavailable");
  });
});
