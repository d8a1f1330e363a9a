/** GET /problems/{code}: what the `type` URI of every problem answer resolves to. */
import { describe, expect, it } from "vitest";
import { api, json, problem } from "../../support/api";

describe("happy", () => {
  it("describes a problem type: its code, status and title", async () => {
    const res = await api("GET", "/problems/slot_unavailable");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await json(res)).toEqual({ code: "slot_unavailable", status: 409, title: "Slot unavailable" });
  });

  it("each problem type URI resolves to its description", async () => {
    const body = await problem(await api("GET", "/nope"), 404, "not_found");
    const res = await api("GET", body.type);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ code: "not_found", status: 404, title: body.title });
  });

  it("documents every code of the OpenAPI Problem schema, and no code the API never answers with", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    const codes: string[] = doc.components.schemas.Problem.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(["unavailable", "webhook_endpoint_limit", "validation_failed"]));
    expect(codes).not.toContain("booking_rule_violated");
    for (const code of codes) {
      const res = await api("GET", `/problems/${code}`);
      expect(res.status, code).toBe(200);
      expect((await json(res)).code).toBe(code);
    }
    await problem(await api("GET", "/problems/booking_rule_violated"), 404, "not_found");
  });
});

describe("error", () => {
  it.each(["no_such_code", "toString", "__proto__", "constructor"])(
    "an unknown problem type (%s) is itself a 404 problem",
    async (code) => {
      const res = await api("GET", `/problems/${code}`);
      const body = await problem(res, 404, "not_found");
      expect(body.instance).toBe(`/api/v1/problems/${code}`);
      expect(body.type).toMatch(/\/api\/v1\/problems\/not_found$/);
    },
  );

  it("another method is a 405 problem naming GET in Allow", async () => {
    const res = await api("DELETE", "/problems/not_found");
    await problem(res, 405, "method_not_allowed");
    expect(res.headers.get("Allow")).toContain("GET");
  });
});

describe("security", () => {
  it("needs no key, and a bad key does not stop it", async () => {
    for (const headers of [{}, { Authorization: "Bearer nonsense" }] as Record<string, string>[]) {
      const res = await api("GET", "/problems/unauthorized", { headers });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ code: "unauthorized", status: 401, title: "Unauthorized" });
    }
  });

  it("answers the three fields of the catalogue and nothing from the request or the server", async () => {
    const res = await api("GET", "/problems/internal_error", { headers: { "X-Request-Id": "probe-123" } });
    const text = await res.text();
    expect(Object.keys(JSON.parse(text)).sort()).toEqual(["code", "status", "title"]);
    expect(text).not.toContain("probe-123");
    expect(text).not.toMatch(/stack|at \S+:\d+/i);
  });
});
