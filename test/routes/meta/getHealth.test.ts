/** GET /health: liveness, without a key and without touching storage. */
import { describe, expect, it } from "vitest";
import { api, json, problem } from "../../support/api";

describe("happy", () => {
  it('200 {"status":"ok"} as JSON, with a request id', async () => {
    const res = await api("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("X-Request-Id")).toMatch(/\S/);
    expect(await json(res)).toEqual({ status: "ok" });
  });
});

describe("error", () => {
  it("another method is a 405 problem naming GET in Allow", async () => {
    for (const method of ["POST", "DELETE"]) {
      const res = await api(method, "/health");
      const body = await problem(res, 405, "method_not_allowed");
      expect(body.instance).toBe("/api/v1/health");
      expect(res.headers.get("Allow")).toContain("GET");
    }
  });
});

describe("security", () => {
  it("needs no key and is not counted against any key's budget", async () => {
    const res = await api("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("WWW-Authenticate")).toBeNull();
    expect(res.headers.get("RateLimit-Policy")).toBeNull();
  });

  it("public routes ignore a bad key rather than rejecting it", async () => {
    const res = await api("GET", "/health", { headers: { Authorization: "Bearer nonsense" } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "ok" });
  });

  it("tells nothing about the deployment: no version, no storage state, no software banner", async () => {
    const res = await api("GET", "/health");
    expect(Object.keys(await json(res))).toEqual(["status"]);
    for (const header of ["Server", "X-Powered-By"]) expect(res.headers.get(header), header).toBeNull();
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
