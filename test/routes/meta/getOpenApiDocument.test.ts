/**
 * GET /openapi.json: the OpenAPI 3.1.0 contract of this API, public. (Its validity, completeness
 * and examples are checked in ../openapi.test.ts and ../openapi-examples.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { api, json, origin, problem } from "../../support/api";

describe("happy", () => {
  it("answers the OpenAPI 3.1.0 document as JSON, every operation with an operationId", async () => {
    const res = await api("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const doc = await json(res);
    expect(doc).toMatchObject({ openapi: "3.1.0", info: { title: "Booking API", version: "1.0.0" } });
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
      (item) => Object.values(item),
    );
    expect(operations.length).toBeGreaterThan(0);
    expect(operations.filter((op) => !op.operationId)).toEqual([]);
  });

  it("points its server at /api/v1 of the host that served it", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    expect(doc.servers[0]?.url).toBe(`${origin}/api/v1`);
    const elsewhere = await json(await api("GET", "https://bookings.example.com/api/v1/openapi.json"));
    expect(elsewhere.servers).toEqual([{ url: "https://bookings.example.com/api/v1" }]);
  });
});

describe("error", () => {
  it("another method is a 405 problem naming GET in Allow", async () => {
    const res = await api("POST", "/openapi.json", { body: {} });
    await problem(res, 405, "method_not_allowed");
    expect(res.headers.get("Allow")).toContain("GET");
  });
});

describe("security", () => {
  it("is served without a key, and a bad key does not stop it", async () => {
    expect((await api("GET", "/openapi.json")).status).toBe(200);
    expect((await api("GET", "/openapi.json", { headers: { Authorization: "Bearer nonsense" } })).status).toBe(200);
  });

  it("documents none of the operator routes under /internal and carries no secret of the deployment", async () => {
    const res = await api("GET", "/openapi.json");
    const text = await res.clone().text();
    const doc = await json(res);
    expect(Object.keys(doc.paths).filter((path) => path.includes("internal"))).toEqual([]);
    expect(text).not.toContain("/internal/");
    expect(text).not.toContain("test-admin-token");
    expect(text).not.toMatch(/bk_(live|test)_[A-Za-z0-9]{16,}/);
  });
});
