/** Conditional requests: ETag on single resources, 304 for If-None-Match, 412 for a stale If-Match. */
import { describe, expect, it } from "vitest";
import { api, bookingBody, createBooking, createOpenService, expectProblem, unique, utcAt } from "./support";

describe("GET /services/{id} with If-None-Match", () => {
  it("answers 304 while the ETag is current, and 200 with a new ETag after a change", async () => {
    const service = await createOpenService();
    const first = await api.GET("/services/{id}", { params: { path: { id: service.id } } });
    const etag = first.response.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);

    const same = await api.GET("/services/{id}", {
      params: { path: { id: service.id }, header: { "if-none-match": etag ?? "" } },
    });
    expect(same.response.status).toBe(304);
    expect(same.response.headers.get("etag")).toBe(etag);

    await api.PATCH("/services/{id}", { params: { path: { id: service.id } }, body: { name: unique("Renamed") } });
    const changed = await api.GET("/services/{id}", {
      params: { path: { id: service.id }, header: { "if-none-match": etag ?? "" } },
    });
    expect(changed.response.status).toBe(200);
    expect(changed.response.headers.get("etag")).not.toBe(etag);
  });
});

describe("GET /customers/{id} with If-None-Match", () => {
  it("answers 304 while the ETag is current", async () => {
    const created = await api.POST("/customers", {
      body: { name: "Barbara Liskov", email: `${unique("barbara")}@example.com` },
    });
    const id = created.data?.id ?? "";
    const first = await api.GET("/customers/{id}", { params: { path: { id } } });
    const etag = first.response.headers.get("etag");
    expect(etag).toBeTruthy();
    const same = await api.GET("/customers/{id}", {
      params: { path: { id }, header: { "if-none-match": etag ?? "" } },
    });
    expect(same.response.status).toBe(304);
  });
});

describe("GET /bookings/{id} with If-None-Match", () => {
  it("answers 304 while the ETag is current", async () => {
    const service = await createOpenService();
    const booking = await createBooking(bookingBody(service, utcAt(5, 10)));
    const first = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    const etag = first.response.headers.get("etag");
    expect(etag).toBeTruthy();
    const same = await api.GET("/bookings/{id}", {
      params: { path: { id: booking.id }, header: { "if-none-match": etag ?? "" } },
    });
    expect(same.response.status).toBe(304);
  });
});

describe("PATCH /services/{id} with If-Match", () => {
  it("applies a change based on the current ETag and refuses a stale one (412)", async () => {
    const service = await createOpenService();
    const first = await api.GET("/services/{id}", { params: { path: { id: service.id } } });
    const etag = first.response.headers.get("etag") ?? "";

    const ok = await api.PATCH("/services/{id}", {
      params: { path: { id: service.id }, header: { "if-match": etag } },
      body: { description: "First change." },
    });
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get("etag")).toBeTruthy();
    expect(ok.response.headers.get("etag")).not.toBe(etag);

    const stale = await api.PATCH("/services/{id}", {
      params: { path: { id: service.id }, header: { "if-match": etag } },
      body: { description: "Lost update." },
    });
    expectProblem(stale.response, stale.error, 412, "precondition_failed");
    const now = await api.GET("/services/{id}", { params: { path: { id: service.id } } });
    expect(now.data?.description).toBe("First change.");
  });
});

describe("PATCH /bookings/{id} with If-Match", () => {
  it("applies a change based on the current ETag and refuses a stale one (412)", async () => {
    const service = await createOpenService();
    const booking = await createBooking(bookingBody(service, utcAt(5, 11)));
    const first = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    const etag = first.response.headers.get("etag") ?? "";

    const ok = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id }, header: { "if-match": etag } },
      body: { notes: "First change." },
    });
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get("etag")).not.toBe(etag);

    const stale = await api.PATCH("/bookings/{id}", {
      params: { path: { id: booking.id }, header: { "if-match": etag } },
      body: { notes: "Lost update." },
    });
    expectProblem(stale.response, stale.error, 412, "precondition_failed");
  });
});
