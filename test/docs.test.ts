import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api } from "./helpers";

describe("GET /api/v1/docs", () => {
  it("serves the reference page without a key, loading only this deployment's assets", async () => {
    const res = await api("GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await res.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual([
      "data:,",
      "/docs-assets/swagger-ui.css",
      "/api/v1/openapi.json",
      "/docs-assets/swagger-ui-bundle.js",
      "/docs-assets/docs.js",
    ]);
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(res.headers.get("Content-Security-Policy")).not.toMatch(/https?:/);
  });

  // The runtime serves static assets before the Worker runs; the ASSETS binding is that same store.
  it("has its Swagger UI bundle and init script served as static assets", async () => {
    for (const path of ["/docs-assets/swagger-ui-bundle.js", "/docs-assets/docs.js", "/docs-assets/swagger-ui.css"]) {
      const res = await env.ASSETS.fetch(`http://api.test${path}`);
      expect(res.status, path).toBe(200);
      expect((await res.text()).length, path).toBeGreaterThan(100);
    }
  });
});
