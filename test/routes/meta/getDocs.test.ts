/** GET /docs: the interactive reference of the served document, with this deployment's own assets. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, problem } from "../../support/api";

describe("happy", () => {
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

  it("may be cached for five minutes, being the same for everyone", async () => {
    const res = await api("GET", "/docs");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
  });
});

describe("error", () => {
  it("another method is a 405 problem naming GET in Allow", async () => {
    const res = await api("POST", "/docs");
    await problem(res, 405, "method_not_allowed");
    expect(res.headers.get("Allow")).toContain("GET");
  });
});

describe("security", () => {
  it("its policy lets nothing run, load or connect from elsewhere, and nothing frame it", async () => {
    const res = await api("GET", "/docs");
    const policy = Object.fromEntries(
      (res.headers.get("Content-Security-Policy") ?? "").split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );
    expect(policy).toMatchObject({
      "default-src": "'none'",
      "script-src": "'self'",
      "connect-src": "'self'",
      "frame-ancestors": "'none'",
    });
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("is the same page with or without a key, and echoes no key sent to it", async () => {
    const anonymous = await (await api("GET", "/docs")).text();
    const res = await api("GET", "/docs", {
      headers: { Authorization: "Bearer bk_test_0123456789abcdef0123456789abcdef" },
    });
    expect(res.status).toBe(200);
    const withKey = await res.text();
    expect(withKey).toBe(anonymous);
    expect(withKey).not.toContain("bk_test_");
  });
});
