/**
 * Deprecation machinery (docs/api-behaviour.md, "Versioning and deprecation"): the middleware
 * and the document marking, driven by a declarative list. v1 deprecates nothing, so the headers
 * are proven on a test-only app with the same middleware, error handler and validation hook as
 * the real one; the real app is checked to announce nothing, and its list to be well-formed.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { apiBasePath } from "../../src/app";
import type { AppEnv } from "../../src/env";
import { ApiError } from "../../src/lib/api-error";
import { type DeprecatedOperation, deprecatedOperations, markDeprecated } from "../../src/lib/deprecations";
import { onError } from "../../src/lib/problem-response";
import { validationHook } from "../../src/lib/validation";
import { deprecation } from "../../src/middleware/deprecation";
import { api, createAccount, json } from "../support/api";

const notice = "https://example.com/changelog/widgets";
const testList: DeprecatedOperation[] = [
  { method: "get", path: "/widgets", deprecatedAt: "2026-01-01T00:00:00Z", sunsetAt: "2027-01-01T00:00:00Z", notice },
  { method: "get", path: "/widgets/{id}", deprecatedAt: "2026-03-01T12:00:00Z", notice },
];

function testApp() {
  const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const ok = { 200: { description: "ok", content: { "application/json": { schema: z.object({ ok: z.boolean() }) } } } };
  v1.openapi(createRoute({ method: "get", path: "/widgets", operationId: "listWidgets", responses: ok }), (c) => {
    c.header("Link", '</api/v1/widgets?page=1>; rel="first"');
    return c.json({ ok: true }, 200);
  });
  v1.openapi(
    createRoute({
      method: "get",
      path: "/widgets/{id}",
      operationId: "getWidget",
      request: { params: z.object({ id: z.string() }) },
      responses: ok,
    }),
    () => {
      throw new ApiError("not_found", "No such widget.");
    },
  );
  v1.openapi(createRoute({ method: "get", path: "/gadgets", operationId: "listGadgets", responses: ok }), (c) =>
    c.json({ ok: true }, 200),
  );
  const app = new OpenAPIHono<AppEnv>();
  app.use(deprecation(apiBasePath, testList));
  app.route(apiBasePath, v1);
  app.onError(onError);
  return { app, v1 };
}

describe("Deprecation and Sunset headers", () => {
  it("announce a deprecated operation with its date, sunset and notice, keeping its own links", async () => {
    const res = await testApp().app.request("http://api.test/api/v1/widgets");
    expect(res.status).toBe(200);
    expect(res.headers.get("Deprecation")).toBe("@1767225600");
    expect(res.headers.get("Sunset")).toBe("Fri, 01 Jan 2027 00:00:00 GMT");
    const link = res.headers.get("Link") ?? "";
    expect(link).toContain('</api/v1/widgets?page=1>; rel="first"');
    expect(link).toContain(`<${notice}>; rel="deprecation"; type="text/html"`);
    expect(link).toContain(`<${notice}>; rel="sunset"; type="text/html"`);
  });

  it("are on error answers and HEAD too; no Sunset while no date is fixed", async () => {
    const { app } = testApp();
    for (const method of ["GET", "HEAD"]) {
      const res = await app.request("http://api.test/api/v1/widgets/w1", { method });
      expect(res.status).toBe(404);
      expect(res.headers.get("Deprecation")).toBe(`@${Date.parse("2026-03-01T12:00:00Z") / 1000}`);
      expect(res.headers.get("Sunset")).toBeNull();
      expect(res.headers.get("Link")).toBe(`<${notice}>; rel="deprecation"; type="text/html"`);
    }
  });

  it("are absent on operations that are not listed and on unknown paths", async () => {
    const { app } = testApp();
    for (const path of ["/api/v1/gadgets", "/api/v1/widgets/w1/parts", "/api/v2/widgets"]) {
      const res = await app.request(`http://api.test${path}`);
      expect(res.headers.get("Deprecation"), path).toBeNull();
      expect(res.headers.get("Sunset"), path).toBeNull();
    }
  });

  it("the document marks exactly the listed operations deprecated", () => {
    const { v1 } = testApp();
    const document = markDeprecated(
      v1.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } }),
      testList,
    );
    expect(document.paths?.["/widgets"]?.get?.deprecated).toBe(true);
    expect(document.paths?.["/widgets/{id}"]?.get?.deprecated).toBe(true);
    expect(document.paths?.["/gadgets"]?.get?.deprecated).toBeUndefined();
  });
});

describe("the v1 list", () => {
  it("names only documented operations, with a sunset at least six months after the deprecation", async () => {
    const document = await json(await api("GET", "/openapi.json"));
    for (const o of deprecatedOperations) {
      expect(document.paths[o.path]?.[o.method]?.deprecated, `${o.method} ${o.path}`).toBe(true);
      expect(Number.isNaN(Date.parse(o.deprecatedAt))).toBe(false);
      expect(o.notice).toMatch(/^https:\/\//);
      if (o.sunsetAt) {
        expect(Date.parse(o.sunsetAt) - Date.parse(o.deprecatedAt)).toBeGreaterThanOrEqual(182 * 86_400_000);
      }
    }
  });

  it("deprecates nothing today: no operation is marked and no answer carries the headers", async () => {
    const document = await json(await api("GET", "/openapi.json"));
    const marked = Object.values(document.paths as Record<string, Record<string, { deprecated?: boolean }>>)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.deprecated);
    expect(marked).toEqual([]);
    const { apiKey } = await createAccount();
    for (const path of ["/services", "/bookings", "/customers", "/webhooks", "/health"]) {
      const res = await api("GET", path, { key: apiKey });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Deprecation"), path).toBeNull();
    }
  });
});
