/** Providers: list, create, get, update (conditional), their bookings, and services naming them. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createOpenService,
  document,
  expectProblem,
  origin,
  parseLinks,
  raw,
  type Schemas,
  unique,
} from "./support";

type Provider = Schemas["Provider"];

async function createProvider(overrides: Partial<Schemas["CreateProvider"]> = {}): Promise<Provider> {
  const { data, error, response } = await api.POST("/providers", {
    body: {
      name: unique("E2E provider"),
      timezone: "Europe/Berlin",
      weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] },
      ...overrides,
    },
  });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data as Provider;
}

describe("POST /providers", () => {
  it("creates a provider: 201, Location, ETag and the stored shape", async () => {
    const name = unique("Alex");
    const dateOverrides = [{ date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] }];
    const { data, response } = await api.POST("/providers", {
      body: { name, email: "alex@example.com", timezone: "Europe/Berlin", weeklySchedule: {}, dateOverrides },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ name, email: "alex@example.com", active: true, dateOverrides });
    expect(data?.id).toMatch(/^prv_/);
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(response.headers.get("location")).toBe(`/api/v1/providers/${data?.id}`);
    const located = await raw("GET", "/providers/{id}", { params: { id: data?.id ?? "" } });
    expect(located.url).toBe(new URL(response.headers.get("location") ?? "", origin).href);
    expect(await located.json()).toEqual(data);
  });

  it("accepts the document's own examples as written", async () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, { example?: unknown }> } })
      .components.schemas;
    const created = await raw("POST", "/providers", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(schemas.CreateProvider?.example),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as Provider;
    const patched = await raw("PATCH", "/providers/{id}", {
      params: { id },
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(schemas.UpdateProvider?.example),
    });
    expect(patched.status).toBe(200);
  });

  it("answers 422 for a repeated override date and an unknown field", async () => {
    const { error, response } = await api.POST("/providers", {
      body: {
        name: "Twice",
        timezone: "UTC",
        weeklySchedule: {},
        dateOverrides: [
          { date: "2026-12-24", intervals: [] },
          { date: "2026-12-24", intervals: [] },
        ],
      },
    });
    const problem = expectProblem(response, error, 422, "validation_failed", "/api/v1/providers");
    expect(problem.errors?.map((e) => e.path)).toContain("dateOverrides.1.date");
    const unknown = await raw("POST", "/providers", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x", timezone: "UTC", weeklySchedule: {}, colour: "blue" }),
    });
    expectProblem(unknown, await unknown.json(), 422, "validation_failed");
  });
});

describe("GET /providers", () => {
  it("lists active providers newest first with pagination and Link; active=false lists the others", async () => {
    const active = await createProvider();
    const inactive = await createProvider({ active: false });
    const { data, response } = await api.GET("/providers", { params: { query: { limit: 100 } } });
    expect(response.status).toBe(200);
    const ids = data?.data.map((p) => p.id) ?? [];
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(inactive.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(Object.keys(parseLinks(response.headers.get("link")))).toEqual(expect.arrayContaining(["first", "last"]));
    const off = await api.GET("/providers", { params: { query: { active: "false", limit: 100 } } });
    expect(off.data?.data.map((p) => p.id)).toContain(inactive.id);
  });
});

describe("GET and PATCH /providers/{id}", () => {
  let provider: Provider;
  beforeAll(async () => {
    provider = await createProvider();
  });

  it("PATCH with the current ETag bumps it; a stale one is 412; If-None-Match answers 304", async () => {
    const first = await api.PATCH("/providers/{id}", {
      params: { path: { id: provider.id }, header: { "if-match": '"v1"' } },
      body: { dateOverrides: [{ date: "2026-12-31", intervals: [] }] },
    });
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("etag")).toBe('"v2"');
    expect(first.data?.dateOverrides).toEqual([{ date: "2026-12-31", intervals: [] }]);
    const stale = await api.PATCH("/providers/{id}", {
      params: { path: { id: provider.id }, header: { "if-match": '"v1"' } },
      body: { name: "Lost" },
    });
    expectProblem(stale.response, stale.error, 412, "precondition_failed");
    const cached = await raw("GET", "/providers/{id}", {
      params: { id: provider.id },
      headers: { "If-None-Match": '"v2"' },
    });
    expect(cached.status).toBe(304);
  });

  it("answers 404 for an unknown id", async () => {
    const { error, response } = await api.GET("/providers/{id}", {
      params: { path: { id: "prv_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found");
  });

  it("lists the provider's bookings in the list envelope", async () => {
    const { data, response } = await api.GET("/providers/{id}/bookings", {
      params: { path: { id: provider.id }, query: { status: "CONFIRMED" } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      data: [],
      pagination: { page: 1, limit: 20, total: 0, totalPages: 1, hasMore: false, nextCursor: null, prevCursor: null },
    });
  });
});

describe("services name their providers", () => {
  it("stores providerIds sorted and refuses an unknown one at its index", async () => {
    const a = await createProvider();
    const b = await createProvider();
    const service = await createOpenService({ providerIds: [b.id, a.id] });
    expect(service.providerIds).toEqual([a.id, b.id].sort());
    const { error, response } = await api.PATCH("/services/{id}", {
      params: { path: { id: service.id } },
      body: { providerIds: [a.id, "prv_00000000000000000000000000"] },
    });
    const problem = expectProblem(response, error, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["providerIds.1"]);
  });
});
