/** RFC 9457 problem details for every failure, request ids, and no internals in any body. */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, createAccount, createService, json, origin, problem, serviceBody } from "../support/api";

const problemFields = ["code", "detail", "instance", "requestId", "status", "title", "type"];

/** Asserts the full RFC 9457 shape of a problem response for `path`, and returns its body. */
async function fullProblem(res: Response, status: number, code: string, path: string) {
  const body = await problem(res, status, code);
  expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  for (const field of problemFields) expect(body, field).toHaveProperty(field);
  expect(
    Object.keys(body)
      .filter((k) => !["errors", "reason"].includes(k))
      .sort(),
  ).toEqual(problemFields);
  expect(body.type).toBe(`${origin}/api/v1/problems/${code}`);
  expect(body.title).toEqual(expect.any(String));
  expect(body.detail).toEqual(expect.any(String));
  expect(body.instance).toBe(path);
  expect(body.requestId).toMatch(/\S/);
  expect(res.headers.get("X-Request-Id")).toBe(body.requestId);
  return body;
}

/** Strings that would give away internals: SQL, stack traces, driver names. */
function expectNoInternals(text: string) {
  expect(text).not.toMatch(/SQL/i);
  expect(text).not.toMatch(/stack/i);
  expect(text).not.toMatch(/\bat\s+\S+\s+\(|\bat\s+\S+:\d+:\d+/);
  expect(text).not.toMatch(/insert into|select .* from|D1_ERROR|drizzle/i);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("happy", () => {
  it("every response carries an X-Request-Id, and a sane client id is echoed", async () => {
    const plain = await api("GET", "/health");
    expect(plain.headers.get("X-Request-Id")).toMatch(/^[\w-]{8,}$/);
    const echoed = await api("GET", "/health", { headers: { "X-Request-Id": "req_2026-12-01=abc" } });
    expect(echoed.headers.get("X-Request-Id")).toBe("req_2026-12-01=abc");
  });

  it("a client request id is echoed in problem bodies too", async () => {
    const res = await api("GET", "/services", { headers: { "X-Request-Id": "trace-123" } });
    const body = await problem(res, 401, "unauthorized");
    expect(body.requestId).toBe("trace-123");
    expect(res.headers.get("X-Request-Id")).toBe("trace-123");
  });

  it("a body of exactly 64 KiB is read, not refused", async () => {
    const { apiKey } = await createAccount();
    const base = JSON.stringify(serviceBody({ padding: "" }));
    const rawBody = JSON.stringify(serviceBody({ padding: "x".repeat(64 * 1024 - base.length) }));
    expect(new TextEncoder().encode(rawBody).length).toBe(64 * 1024);
    const res = await api("POST", "/services", {
      key: apiKey,
      rawBody,
      headers: { "Content-Type": "application/json" },
    });
    // Read and validated: the padding field is unknown.
    const entry = (await problem(res, 422, "validation_failed")).errors[0];
    expect(entry.message).toContain("padding");
  });

  it("application/json with a charset is accepted", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/services", {
      key: apiKey,
      rawBody: JSON.stringify(serviceBody()),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(201);
  });
});

describe("errors", () => {
  it("an unknown route is a 404 problem, inside and outside /api/v1", async () => {
    await fullProblem(await api("GET", "/nope"), 404, "not_found", "/api/v1/nope");
    await fullProblem(await api("GET", `${origin}/`), 404, "not_found", "/");
    await fullProblem(await api("GET", `${origin}/api/v2/services`), 404, "not_found", "/api/v2/services");
  });

  it("a wrong method is 405 with an Allow header", async () => {
    const { apiKey } = await createAccount();
    const onList = await api("DELETE", "/services", { key: apiKey });
    await fullProblem(onList, 405, "method_not_allowed", "/api/v1/services");
    expect(onList.headers.get("Allow")?.split(/,\s*/).sort()).toEqual(expect.arrayContaining(["GET", "POST"]));
    expect(onList.headers.get("Allow")).not.toContain("DELETE");

    const onItem = await api("PUT", "/services/svc_x", { key: apiKey });
    await fullProblem(onItem, 405, "method_not_allowed", "/api/v1/services/svc_x");
    expect(onItem.headers.get("Allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "PATCH"]));
    expect(onItem.headers.get("Allow")).not.toContain("POST");

    const onHealth = await api("POST", "/health");
    await fullProblem(onHealth, 405, "method_not_allowed", "/api/v1/health");
    expect(onHealth.headers.get("Allow")).toContain("GET");
  });

  it.each([
    ["POST", "/services", "{bad"],
    ["POST", "/customers", '{"name": "Ada",'],
    ["POST", "/customers", ""],
  ])("malformed JSON to %s %s is 400 malformed_json", async (method, path, rawBody) => {
    const { apiKey } = await createAccount();
    const res = await api(method, path, { key: apiKey, rawBody, headers: { "Content-Type": "application/json" } });
    await fullProblem(res, 400, "malformed_json", `/api/v1${path}`);
  });

  it("malformed JSON to PATCH is 400 and changes nothing", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const res = await api("PATCH", `/services/${service.id}`, {
      key: apiKey,
      rawBody: '{"name": "x"',
      headers: { "Content-Type": "application/json" },
    });
    await fullProblem(res, 400, "malformed_json", `/api/v1/services/${service.id}`);
    expect(await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).toEqual(service);
  });

  it.each([
    ["text/plain", { "Content-Type": "text/plain" }],
    ["form data", { "Content-Type": "application/x-www-form-urlencoded" }],
    ["no content type", {}],
  ])("a POST body sent as %s is 415", async (_, headers: Record<string, string>) => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/customers", {
      key: apiKey,
      rawBody: JSON.stringify({ name: "Ada", email: "ada@example.com" }),
      headers,
    });
    await fullProblem(res, 415, "unsupported_media_type", "/api/v1/customers");
    expect((await json(await api("GET", "/customers", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("a body over 64 KiB is 413, by Content-Length or streamed", async () => {
    const { apiKey } = await createAccount();
    const base = JSON.stringify(serviceBody({ padding: "" }));
    const rawBody = JSON.stringify(serviceBody({ padding: "x".repeat(64 * 1024 + 1 - base.length) }));
    expect(new TextEncoder().encode(rawBody).length).toBe(64 * 1024 + 1);
    const headers = { "Content-Type": "application/json" };
    await fullProblem(
      await api("POST", "/services", { key: apiKey, rawBody, headers }),
      413,
      "payload_too_large",
      "/api/v1/services",
    );
    const stream = new Blob([rawBody]).stream();
    await fullProblem(
      await api("POST", "/services", { key: apiKey, rawBody: stream, headers }),
      413,
      "payload_too_large",
      "/api/v1/services",
    );
    expect((await json(await api("GET", "/services", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("422 lists errors[] with path and message", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/customers", { key: apiKey, body: { name: "", email: "nope" } });
    const body = await fullProblem(res, 422, "validation_failed", "/api/v1/customers");
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: "name", message: expect.any(String) },
        { path: "email", message: expect.any(String) },
      ]),
    );
  });

  it("401 and 404 have the full problem shape", async () => {
    const { apiKey } = await createAccount();
    await fullProblem(await api("GET", "/customers"), 401, "unauthorized", "/api/v1/customers");
    await fullProblem(
      await api("GET", "/customers/cus_nope", { key: apiKey }),
      404,
      "not_found",
      "/api/v1/customers/cus_nope",
    );
  });

  it.each([
    ["with spaces", "has spaces in it"],
    ["300 characters long", "a".repeat(300)],
    ["with a newline-ish character", "abc;def"],
  ])("a client request id %s is replaced", async (_, sent) => {
    const res = await api("GET", "/nope", { headers: { "X-Request-Id": sent } });
    const body = await problem(res, 404, "not_found");
    expect(body.requestId).not.toBe(sent);
    expect(body.requestId).toMatch(/^[\w-]{8,128}$/);
    expect(res.headers.get("X-Request-Id")).toBe(body.requestId);
  });

  it("a database failure is a 500 internal_error without SQL, and is logged with the request id", async () => {
    const { apiKey } = await createAccount();
    await env.DB_0.prepare(
      "CREATE TRIGGER IF NOT EXISTS test_boom BEFORE INSERT ON customers WHEN NEW.email = 'boom@example.com' " +
        "BEGIN SELECT RAISE(ABORT, 'SQL boom from a test trigger'); END",
    ).run();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await api("POST", "/customers", {
      key: apiKey,
      body: { name: "Boom", email: "boom@example.com" },
      headers: { "X-Request-Id": "boom-request" },
    });
    const text = await res.clone().text();
    const body = await fullProblem(res, 500, "internal_error", "/api/v1/customers");
    expect(body.requestId).toBe("boom-request");
    expectNoInternals(text);
    expect(text).not.toContain("boom@example.com");
    expect(logged).toHaveBeenCalled();
    expect(logged.mock.calls.flat().join(" ")).toContain("boom-request");
  });

  it("a corrupt stored row is a 500 internal_error without a stack trace", async () => {
    const { apiKey, businessId } = await createAccount();
    const now = new Date().toISOString();
    await env.DB_0.prepare(
      "INSERT INTO services (id, business_id, name, duration_minutes, slot_interval_minutes, timezone, weekly_schedule, created_at, updated_at) VALUES (?, ?, 'Broken', 30, 30, 'UTC', '{not json', ?, ?)",
    )
      .bind("svc_corrupt", businessId, now, now)
      .run();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await api("GET", "/services/svc_corrupt", { key: apiKey });
    const text = await res.clone().text();
    await fullProblem(res, 500, "internal_error", "/api/v1/services/svc_corrupt");
    expectNoInternals(text);
    expect(text).not.toMatch(/SyntaxError|JSON\.parse|not json/);
  });
});

describe("security", () => {
  it("no error body gives away internals", async () => {
    const { apiKey } = await createAccount();
    const jsonHeaders = { "Content-Type": "application/json" };
    const responses = await Promise.all([
      api("GET", "/nope"),
      api("DELETE", "/services", { key: apiKey }),
      api("GET", "/services"),
      api("GET", "/services", { key: "bk_live_0000000000000000" }),
      api("GET", "/services/svc_nope", { key: apiKey }),
      api("GET", "/services?limit=abc", { key: apiKey }),
      api("GET", `/customers?search=${encodeURIComponent("' OR 1=1 --")}`, { key: apiKey }),
      api("GET", `/services/${encodeURIComponent("svc_x' OR '1'='1")}`, { key: apiKey }),
      api("POST", "/services", { key: apiKey, rawBody: "{bad", headers: jsonHeaders }),
      api("POST", "/services", { key: apiKey, body: serviceBody({ timezone: "Mars/Olympus", capacity: "x" }) }),
      api("POST", "/services", { key: apiKey, rawBody: "[]", headers: jsonHeaders }),
      api("POST", "/services", { key: apiKey, rawBody: "null", headers: jsonHeaders }),
      api("POST", "/customers", { key: apiKey, rawBody: "x", headers: { "Content-Type": "text/plain" } }),
      api("PATCH", "/services/svc_nope", { key: apiKey, body: { durationMinutes: "1; DROP TABLE services" } }),
    ]);
    for (const res of responses) {
      const text = await res.text();
      if (res.status >= 400) {
        expect(res.headers.get("Content-Type"), text).toBe("application/problem+json");
        expect(res.status, text).toBeLessThan(500);
      }
      expectNoInternals(text);
    }
    // The SQL-looking search is a literal substring: it matched nothing and broke nothing.
    expect(responses[6]?.status).toBe(200);
  });
});
