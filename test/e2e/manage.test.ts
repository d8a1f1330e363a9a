/** Customers' manage links against the dev server: a link from a booking, used without a key. */
import { describe, expect, it } from "vitest";
import {
  anonymous,
  api,
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  plusMinutes,
  unique,
  utcAt,
} from "./support";

/** The `{token}` of a manage URL, checking it points at this server's API. */
const tokenOf = (url: string | null | undefined) => {
  expect(url).toMatch(/^http:\/\/[^/]+\/api\/v1\/manage\/bkg_[0-9a-z]{26}\.[A-Za-z0-9_-]{43}$/);
  return (url ?? "").split("/").at(-1) as string;
};

describe("manage links", () => {
  it("a customer views, moves and cancels their booking by its link, inside the policy", async () => {
    const service = await createOpenService({
      name: unique("Manage service"),
      cancellationNoticeMinutes: 60,
      rescheduleNoticeMinutes: 60,
    });
    const booking = await createBooking(bookingBody(service, utcAt(9, 10), { customerName: "Barbara Liskov" }));
    const token = tokenOf(booking.manageUrl);
    const path = { path: { token } };

    const view = await anonymous.GET("/manage/{token}", { params: path });
    expect(view.response.status).toBe(200);
    expect(view.data).toMatchObject({
      id: booking.id,
      status: "CONFIRMED",
      service: { name: service.name, durationMinutes: 30, timezone: "UTC" },
      customerName: "Barbara Liskov",
      cancellableUntil: plusMinutes(booking.startTime, -60),
    });

    const slots = await anonymous.GET("/manage/{token}/availability", {
      params: { ...path, query: { from: utcAt(9, 10), to: utcAt(9, 12) } },
    });
    expect(slots.data?.slots.map((s) => s.bookable)).toEqual([false, true, true, true]);

    const startTime = utcAt(9, 11);
    const moved = await anonymous.POST("/manage/{token}/reschedule", {
      params: path,
      body: { startTime, endTime: plusMinutes(startTime, 30) },
    });
    expect(moved.response.status).toBe(200);
    expect(moved.data?.startTime).toBe(new Date(startTime).toISOString());

    const cancelled = await anonymous.POST("/manage/{token}/cancel", { params: path, body: { reason: "Away" } });
    expect(cancelled.data).toMatchObject({ status: "CANCELLED", cancellationReason: "Away", manageUrl: null });
    const gone = await anonymous.GET("/manage/{token}", { params: path });
    expectProblem(gone.response, gone.error, 404, "not_found");
    const read = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    expect(read.data).toMatchObject({ status: "CANCELLED", manageUrl: null });
  });

  it("inside the notice a link gets 409 policy_window; the business's key is not bound", async () => {
    const service = await createOpenService({
      name: unique("Strict service"),
      cancellationNoticeMinutes: 60 * 24 * 30,
    });
    const booking = await createBooking(bookingBody(service, utcAt(9, 10)));
    const refused = await anonymous.POST("/manage/{token}/cancel", {
      params: { path: { token: tokenOf(booking.manageUrl) } },
      body: {},
    });
    expectProblem(refused.response, refused.error, 409, "policy_window");
    expect((refused.error as { until?: string }).until).toBe(plusMinutes(booking.startTime, -60 * 24 * 30));
    const byKey = await api.POST("/bookings/{id}/cancel", { params: { path: { id: booking.id } }, body: {} });
    expect(byKey.response.status).toBe(200);
  });

  it("rotating the business's link key ends every link sent; reads show the new one", async () => {
    const service = await createOpenService({ name: unique("Rotate service") });
    const booking = await createBooking(bookingBody(service, utcAt(9, 14)));
    const rotated = await api.POST("/manage-links/rotate", {});
    expect(rotated.response.status).toBe(200);
    const old = await anonymous.GET("/manage/{token}", { params: { path: { token: tokenOf(booking.manageUrl) } } });
    expectProblem(old.response, old.error, 404, "not_found");
    const read = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    const fresh = await anonymous.GET("/manage/{token}", {
      params: { path: { token: tokenOf(read.data?.manageUrl) } },
    });
    expect(fresh.response.status).toBe(200);
  });
});
