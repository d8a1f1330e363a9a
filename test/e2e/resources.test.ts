/** Resources: create, list, get, update (conditional), their bookings, and services needing them. */
import { describe, expect, it } from "vitest";
import { api, bookingBody, createOpenService, expectProblem, type Schemas, unique } from "./support";

type Resource = Schemas["Resource"];

async function createResource(overrides: Partial<Schemas["CreateResource"]> = {}): Promise<Resource> {
  const { data, error, response } = await api.POST("/resources", {
    body: { name: unique("E2E room"), timezone: "UTC", ...overrides },
  });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data as Resource;
}

describe("resources", () => {
  it("creates one with its units, reads it with an ETag, and lists it", async () => {
    const room = await createResource({ quantity: 2 });
    expect(room).toMatchObject({ quantity: 2, active: true });
    expect(room.id).toMatch(/^res_/);
    const { data, response } = await api.GET("/resources/{id}", { params: { path: { id: room.id } } });
    expect(data).toEqual(room);
    expect(response.headers.get("etag")).toBe('"v1"');
    const list = await api.GET("/resources", { params: { query: { limit: 100 } } });
    expect(list.data?.data.map((r) => r.id)).toContain(room.id);
  });

  it("changes it only with the current ETag", async () => {
    const room = await createResource();
    const stale = await api.PATCH("/resources/{id}", {
      params: { path: { id: room.id }, header: { "if-match": '"v9"' } },
      body: { quantity: 3 },
    });
    expectProblem(stale.response, stale.error, 412, "precondition_failed");
    const { data, response } = await api.PATCH("/resources/{id}", {
      params: { path: { id: room.id }, header: { "if-match": '"v1"' } },
      body: { quantity: 3 },
    });
    expect(response.status).toBe(200);
    expect(data?.quantity).toBe(3);
    expect(response.headers.get("etag")).toBe('"v2"');
  });

  it("is taken by a booking of a service that needs it: one unit, then resource_unavailable", async () => {
    const room = await createResource();
    const massage = await createOpenService({ resourceIds: [room.id] });
    const facial = await createOpenService({ resourceIds: [room.id] });
    const start = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 11).concat("10:00:00Z");
    const booked = await api.POST("/bookings", { body: bookingBody(massage, start) });
    expect(booked.response.status).toBe(201);
    expect(booked.data?.resourceIds).toEqual([room.id]);
    const refused = await api.POST("/bookings", { body: bookingBody(facial, start) });
    const problem = expectProblem(refused.response, refused.error, 409, "slot_unavailable");
    expect(problem.reason).toBe("resource_unavailable");
    const theirs = await api.GET("/resources/{id}/bookings", { params: { path: { id: room.id } } });
    expect(theirs.data?.data.map((b) => b.id)).toEqual([booked.data?.id]);
    // Fewer units than the upcoming booking needs are refused.
    const none = await api.PATCH("/resources/{id}", { params: { path: { id: room.id } }, body: { active: false } });
    expectProblem(none.response, none.error, 409, "bookings_conflict");
  });

  it("is not found for an id the business does not have", async () => {
    const { error, response } = await api.GET("/resources/{id}", {
      params: { path: { id: "res_00000000000000000000000000" } },
    });
    expectProblem(response, error, 404, "not_found");
  });
});
