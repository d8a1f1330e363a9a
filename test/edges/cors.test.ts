/**
 * CORS with configured origins. Runs in the "edges" project (vitest.config.ts), whose Miniflare
 * sets CORS_ORIGINS to two origins (and small rate-limit budgets); the default, CORS off, is
 * covered by hardening.test.ts in the main project.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, createService, problem } from "../support/api";
import { awayFromWindowEdge, budgetOf, postCustomer, sequential } from "../support/edges";

const allowedOrigins = String(env.CORS_ORIGINS as string)
  .split(",")
  .map((o) => o.trim())
  .filter(Boolean);
const allowed = allowedOrigins[0] as string;
const evil = "https://evil.example";

/** Header values as a lower-cased set: "A, b" → {a, b}. */
const listOf = (value: string | null) =>
  new Set(
    (value ?? "")
      .split(",")
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
  );

beforeAll(() => {
  expect(allowedOrigins.length, "the edges project sets CORS_ORIGINS").toBeGreaterThanOrEqual(2);
  expect(allowedOrigins).not.toContain("*");
});

const preflight = (path: string, from: string, method = "POST", headers = "authorization, content-type") =>
  api("OPTIONS", path, {
    headers: { Origin: from, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
  });

describe("preflight", () => {
  it("allows a configured origin with the API's methods and request headers, cached for a while", async () => {
    for (const origin of allowedOrigins) {
      const res = await preflight("/bookings", origin, "POST", "authorization, content-type, idempotency-key");
      expect(res.status, origin).toBe(204);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe(origin);
      const methods = listOf(res.headers.get("Access-Control-Allow-Methods"));
      for (const m of ["get", "post", "patch"]) expect(methods.has(m), `Allow-Methods has ${m}`).toBe(true);
      const headers = listOf(res.headers.get("Access-Control-Allow-Headers"));
      for (const h of ["authorization", "content-type", "idempotency-key", "if-match", "if-none-match"]) {
        expect(headers.has(h), `Allow-Headers has ${h}`).toBe(true);
      }
      expect(Number(res.headers.get("Access-Control-Max-Age"))).toBeGreaterThan(0);
      expect(listOf(res.headers.get("Vary")).has("origin")).toBe(true);
      // Keys travel in the Authorization header, never in cookies.
      expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
      expect(await res.text()).toBe("");
    }
  });

  it("works for PATCH with If-Match on a single resource, without a key", async () => {
    const res = await preflight(
      "/bookings/bkg_01jd3k5v7q8r9s0t1u2v3w4x5y",
      allowed,
      "PATCH",
      "authorization, if-match",
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(allowed);
  });

  it("does not allow an origin that is not configured", async () => {
    const res = await preflight("/bookings", evil);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    // Nor does it echo a look-alike of an allowed origin.
    for (const lookalike of [`${allowed}.evil.example`, allowed.replace("https:", "http:"), `${allowed}/`]) {
      expect(
        (await preflight("/bookings", lookalike)).headers.get("Access-Control-Allow-Origin"),
        lookalike,
      ).toBeNull();
    }
  });
});

describe("actual requests", () => {
  it("carry Access-Control-Allow-Origin for the allowed origin and expose the API's response headers", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await api("GET", `/services/${service.id}`, { key: apiKey, headers: { Origin: allowed } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(allowed);
    expect(listOf(res.headers.get("Vary")).has("origin")).toBe(true);
    const exposed = listOf(res.headers.get("Access-Control-Expose-Headers"));
    for (const h of [
      "etag",
      "location",
      "link",
      "x-request-id",
      "retry-after",
      "ratelimit",
      "ratelimit-policy",
      "x-d1-bookmark",
    ]) {
      expect(exposed.has(h), `Expose-Headers has ${h}`).toBe(true);
    }
    // Security headers stay on.
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
  });

  it("carry no Access-Control-Allow-Origin for another origin (the browser then hides the answer)", async () => {
    const { apiKey } = await createAccount();
    const res = await api("GET", "/services", { key: apiKey, headers: { Origin: evil } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("let the allowed origin read problem answers: 401, 404 and 429", async () => {
    const { apiKey } = await createAccount();
    const unauthorized = await api("GET", "/services", { headers: { Origin: allowed } });
    await problem(unauthorized.clone(), 401, "unauthorized");
    expect(unauthorized.headers.get("Access-Control-Allow-Origin")).toBe(allowed);

    const missing = await api("GET", "/services/svc_01jd3k5v7q8r9s0t1u2v3w4x5y", {
      key: apiKey,
      headers: { Origin: allowed },
    });
    await problem(missing.clone(), 404, "not_found");
    expect(missing.headers.get("Access-Control-Allow-Origin")).toBe(allowed);

    const writes = budgetOf("WRITE_BUDGET");
    await awayFromWindowEdge(writes.period);
    await sequential(writes.limit, () => postCustomer(apiKey));
    const limited = await api("POST", "/customers", {
      key: apiKey,
      body: { name: "Late", email: "late@example.com" },
      headers: { Origin: allowed },
    });
    await problem(limited.clone(), 429, "rate_limited");
    expect(limited.headers.get("Access-Control-Allow-Origin")).toBe(allowed);
    expect(listOf(limited.headers.get("Access-Control-Expose-Headers")).has("retry-after")).toBe(true);
  });
});
