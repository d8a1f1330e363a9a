/** Services: catalog list, create, get, update and the live availability calendar. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  origin,
  pageOf,
  parseLinks,
  raw,
  type Service,
  unique,
  utcAt,
} from "./support";

const seededNames = ["Haircut", "Beard trim", "Group yoga class"];

describe("GET /services", () => {
  it("lists the seeded active services, newest first, with pagination and Link", async () => {
    const { data, response } = await api.GET("/services", { params: { query: { limit: 100 } } });
    expect(response.status).toBe(200);
    const names = data?.data.map((s) => s.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(seededNames));
    expect(data?.data.every((s) => s.active)).toBe(true);
    const ids = data?.data.map((s) => s.id) ?? [];
    expect(ids).toEqual([...ids].sort().reverse());
    expect(data?.pagination).toMatchObject({ page: 1, limit: 100, hasMore: false });
    const links = parseLinks(response.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["first", "last"]);
    expect(pageOf(links.first)).toEqual({ page: 1, limit: 100 });
  });

  it("pages with limit and follows the Link header", async () => {
    const first = await api.GET("/services", { params: { query: { limit: 1 } } });
    expect(first.response.status).toBe(200);
    const total = first.data?.pagination.total ?? 0;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(first.data?.pagination).toMatchObject({ page: 1, limit: 1, totalPages: total, hasMore: true });
    const links = parseLinks(first.response.headers.get("link"));
    expect(links.prev).toBeUndefined();
    expect(pageOf(links.next)).toEqual({ page: 2, limit: 1 });
    expect(pageOf(links.last)).toEqual({ page: total, limit: 1 });

    const next = await api.GET("/services", { params: { query: pageOf(links.next) } });
    expect(next.data?.data[0]?.id).not.toBe(first.data?.data[0]?.id);
    const nextLinks = parseLinks(next.response.headers.get("link"));
    expect(pageOf(nextLinks.prev)).toEqual({ page: 1, limit: 1 });
    // The targets are paths on this origin that answer the same list.
    const viaLink = await raw("GET", "/services", { query: new URL(links.next ?? "", origin).search.slice(1) });
    expect(((await viaLink.json()) as { data: Service[] }).data[0]?.id).toBe(next.data?.data[0]?.id);
  });

  it("lists inactive services with active=false", async () => {
    const service = await createOpenService({ active: false });
    const { data, response } = await api.GET("/services", { params: { query: { active: "false", limit: 100 } } });
    expect(response.status).toBe(200);
    expect(data?.data.map((s) => s.id)).toContain(service.id);
    expect(data?.data.every((s) => !s.active)).toBe(true);
  });

  it("answers 422 for an out-of-range limit", async () => {
    const { error, response } = await api.GET("/services", { params: { query: { limit: 101 } } });
    const problem = expectProblem(response, error, 422, "validation_failed", "/api/v1/services");
    expect(problem.errors?.map((e) => e.path)).toContain("limit");
  });

  it("answers 422 for an unknown query field", async () => {
    const response = await raw("GET", "/services", { query: "color=blue" });
    expectProblem(response, await response.json(), 422, "validation_failed");
  });
});

describe("POST /services", () => {
  it("creates a service with defaults, 201 and Location", async () => {
    const name = unique("Massage");
    const { data, response } = await api.POST("/services", {
      body: {
        name,
        durationMinutes: 45,
        timezone: "Europe/Berlin",
        weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] },
      },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      name,
      description: null,
      durationMinutes: 45,
      capacity: 1,
      slotIntervalMinutes: 45,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      minNoticeMinutes: 0,
      maxAdvanceDays: 365,
      requiresConfirmation: false,
      active: true,
    });
    expect(data?.id).toMatch(/^svc_/);
    expect(response.headers.get("location")).toBe(`/api/v1/services/${data?.id}`);

    const located = await raw("GET", "/services/{id}", { params: { id: data?.id ?? "" } });
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(data);
  });

  it("answers 422 with every invalid field", async () => {
    const { error, response } = await api.POST("/services", {
      body: {
        name: "",
        durationMinutes: 0,
        timezone: "Mars/Olympus_Mons",
        weeklySchedule: { mon: [{ start: "17:00", end: "09:00" }] },
      },
    });
    const problem = expectProblem(response, error, 422, "validation_failed", "/api/v1/services");
    expect(problem.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining(["name", "durationMinutes", "timezone", "weeklySchedule.mon.0.end"]),
    );
  });
});

describe("GET /services/{id}", () => {
  it("returns a seeded service", async () => {
    const list = await api.GET("/services", { params: { query: { limit: 100 } } });
    const haircut = list.data?.data.find((s) => s.name === "Haircut");
    expect(haircut).toBeDefined();
    const { data, response } = await api.GET("/services/{id}", { params: { path: { id: haircut?.id ?? "" } } });
    expect(response.status).toBe(200);
    expect(data).toEqual(haircut);
    expect(data).toMatchObject({ durationMinutes: 30, timezone: "Europe/Berlin", bufferAfterMinutes: 10 });
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.GET("/services/{id}", {
      params: { path: { id: "svc_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found", "/api/v1/services/svc_00000000000000000000000000");
  });

  it("answers 422 for an id longer than 64 characters", async () => {
    const { error, response } = await api.GET("/services/{id}", { params: { path: { id: "s".repeat(65) } } });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("PATCH /services/{id}", () => {
  let service: Service;
  beforeAll(async () => {
    service = await createOpenService();
  });

  it("changes the given fields only", async () => {
    const { data, response } = await api.PATCH("/services/{id}", {
      params: { path: { id: service.id } },
      body: { description: "Now with tea.", capacity: 3 },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      ...service,
      description: "Now with tea.",
      capacity: 3,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(data?.updatedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(service.updatedAt));
  });

  it("deactivates a service: it leaves the default list", async () => {
    const other = await createOpenService();
    const { data } = await api.PATCH("/services/{id}", { params: { path: { id: other.id } }, body: { active: false } });
    expect(data?.active).toBe(false);
    const list = await api.GET("/services", { params: { query: { limit: 100 } } });
    expect(list.data?.data.map((s) => s.id)).not.toContain(other.id);
  });

  it("answers 422 for an empty change", async () => {
    const { error, response } = await api.PATCH("/services/{id}", { params: { path: { id: service.id } }, body: {} });
    expectProblem(response, error, 422, "validation_failed");
  });

  it("answers 422 for an unknown field", async () => {
    const response = await raw("PATCH", "/services/{id}", {
      params: { id: service.id },
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x", colour: "blue" }),
    });
    const problem = expectProblem(response, await response.json(), 422, "validation_failed");
    expect(problem.errors?.[0]?.message).toMatch(/colour/);
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.PATCH("/services/{id}", {
      params: { path: { id: "svc_00000000000000000000000000" } },
      body: { name: "Ghost" },
    });
    expectProblem(response, error, 404, "not_found");
  });
});

describe("GET /services/{id}/availability", () => {
  it("shows the seeded group class with its booked seats", async () => {
    const services = await api.GET("/services", { params: { query: { limit: 100 } } });
    const yoga = services.data?.data.find((s) => s.name === "Group yoga class");
    expect(yoga).toBeDefined();
    const bookings = await api.GET("/bookings", { params: { query: { serviceId: yoga?.id, limit: 100 } } });
    const seeded = bookings.data?.data.filter((b) => b.status === "CONFIRMED") ?? [];
    expect(seeded.length).toBeGreaterThanOrEqual(2);
    const start = seeded.map((b) => b.startTime).sort()[0] ?? "";
    const sameSlot = seeded.filter((b) => b.startTime === start).length;

    const { data, response } = await api.GET("/services/{id}/availability", {
      params: {
        path: { id: yoga?.id ?? "" },
        query: { from: start, to: new Date(Date.parse(start) + 86_400_000).toISOString() },
      },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ serviceId: yoga?.id, timezone: "Europe/Berlin" });
    const slot = data?.slots.find((s) => Date.parse(s.startTime) === Date.parse(start));
    expect(slot).toMatchObject({ capacity: 8, booked: sameSlot, remaining: 8 - sameSlot, bookable: true });
  });

  it("counts a new booking in its slot at once", async () => {
    const service = await createOpenService();
    const start = utcAt(3, 10);
    const before = await api.GET("/services/{id}/availability", {
      params: { path: { id: service.id }, query: { from: utcAt(3, 0), to: utcAt(4, 0) } },
    });
    expect(before.data?.slots).toHaveLength(48);
    expect(before.data?.slots.find((s) => Date.parse(s.startTime) === Date.parse(start))).toMatchObject({
      booked: 0,
      remaining: 1,
    });

    await createBooking(bookingBody(service, start));
    const after = await api.GET("/services/{id}/availability", {
      params: { path: { id: service.id }, query: { from: utcAt(3, 0), to: utcAt(4, 0) } },
    });
    expect(after.data?.slots.find((s) => Date.parse(s.startTime) === Date.parse(start))).toMatchObject({
      capacity: 1,
      booked: 1,
      remaining: 0,
      bookable: false,
    });
  });

  it("defaults to seven days from now", async () => {
    const service = await createOpenService();
    const { data, response } = await api.GET("/services/{id}/availability", { params: { path: { id: service.id } } });
    expect(response.status).toBe(200);
    expect(Date.parse(data?.to ?? "") - Date.parse(data?.from ?? "")).toBe(7 * 86_400_000);
  });

  it("answers 422 for a range that ends before it starts", async () => {
    const service = await createOpenService();
    const { error, response } = await api.GET("/services/{id}/availability", {
      params: { path: { id: service.id }, query: { from: utcAt(5, 0), to: utcAt(4, 0) } },
    });
    expectProblem(response, error, 422, "validation_failed");
  });

  it("answers 422 for a time with an offset instead of Z", async () => {
    const { error, response } = await api.GET("/services/{id}/availability", {
      params: { path: { id: "svc_00000000000000000000000000" }, query: { from: "2026-12-01T10:00:00+01:00" } },
    });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain("from");
  });

  it("answers 404 for an unknown service", async () => {
    const { error, response } = await api.GET("/services/{id}/availability", {
      params: { path: { id: "svc_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found");
  });
});
