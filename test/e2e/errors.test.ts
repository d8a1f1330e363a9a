/**
 * Cross-cutting errors, driven from the document itself: every authenticated operation refuses
 * a missing or unknown key (401), and every operation with a JSON body refuses malformed JSON
 * (400), another media type (415) and a body over 64 KiB (413). Each response is contract-checked.
 */
import { describe, expect, it } from "vitest";
import { contract, expectProblem, secondApiKey as key, raw } from "./support";

type Operation = ReturnType<typeof contract.operations>[number];

/** Values for path parameters: well-formed ids that no business owns. */
const sampleParams: Record<string, string> = {
  id: "zzz_00000000000000000000000000",
  deliveryId: "dlv_00000000000000000000000000",
  calendarId: "cal_00000000000000000000000000",
  code: "not_found",
  token: "bkg_00000000000000000000000000.0000000000000000000000000000000000000000000",
  slug: "no-such-page",
};

const instanceOf = (path: string) =>
  `/api/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => sampleParams[name] ?? "")}`;

const secured = contract.operations().filter((o) => {
  const security = o.operation.security;
  return Array.isArray(security) && security.length > 0;
});
const withBody = contract.operations().filter((o) => o.operation.requestBody !== undefined);
const label = (o: Operation) => `${o.method} ${o.path}`;
/** The only operations that answer without an API key. */
const publicOperations = [
  "GET /health",
  "GET /docs",
  "GET /openapi.json",
  "GET /problems/{code}",
  "GET /feeds/{token}.ics",
  "GET /manage/{token}",
  "GET /manage/{token}/availability",
  "POST /manage/{token}/reschedule",
  "POST /manage/{token}/cancel",
  "GET /public/{slug}/services",
  "GET /public/{slug}/services/{id}/availability",
  "POST /public/{slug}/holds",
  "POST /public/{slug}/bookings",
];

describe("401 on every authenticated operation", () => {
  it("covers every operation except the public ones", () => {
    expect(secured.map(label).sort()).toEqual(
      contract
        .operations()
        .map(label)
        .filter((l) => !publicOperations.includes(l))
        .sort(),
    );
  });

  it.each(secured.map((o) => [label(o), o] as const))("%s without a key", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      auth: false,
      ...(withBody.includes(o) ? { headers: { "Content-Type": "application/json" }, body: "{}" } : {}),
    });
    expectProblem(response, await response.json(), 401, "unauthorized", instanceOf(o.path));
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="api"');
  });

  it.each(secured.map((o) => [label(o), o] as const))("%s with an unknown key", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      headers: { Authorization: "Bearer bk_live_0000000000000000000000000x" },
    });
    expectProblem(response, await response.json(), 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="api", error="invalid_token"');
  });

  it.each(secured.map((o) => [label(o), o] as const))("%s with a malformed Authorization header", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      headers: { Authorization: "Basic YWRhOg==" },
    });
    expectProblem(response, await response.json(), 401, "unauthorized");
  });
});

/**
 * The body cases write with the second key: every write counts against its key's budget (300 a
 * minute), and the demo key's is spent by the other files when the suite runs fast.
 */
describe("request bodies", () => {
  it("are taken by exactly these operations", () => {
    expect(withBody.map(label).sort()).toEqual([
      "PATCH /bookings/{id}",
      "PATCH /business",
      "PATCH /customers/{id}",
      "PATCH /members/{id}",
      "PATCH /providers/{id}",
      "PATCH /resources/{id}",
      "PATCH /services/{id}",
      "POST /api-keys",
      "POST /appointments",
      "POST /appointments/{id}/cancel",
      "POST /bookings",
      "POST /bookings/{id}/cancel",
      "POST /bookings/{id}/reschedule",
      "POST /customers",
      "POST /holds",
      "POST /manage-links/rotate",
      "POST /manage/{token}/cancel",
      "POST /manage/{token}/reschedule",
      "POST /mcp",
      "POST /members",
      "POST /providers",
      "POST /providers/{id}/calendars",
      "POST /public/{slug}/bookings",
      "POST /public/{slug}/holds",
      "POST /resources",
      "POST /series",
      "POST /series/{id}/cancel",
      "POST /services",
      "POST /waitlist",
      "POST /webhooks",
    ]);
  });

  it.each(withBody.map((o) => [label(o), o] as const))("%s: malformed JSON is a 400", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      key,
      headers: { "Content-Type": "application/json" },
      body: '{"name": "unterminated',
    });
    expectProblem(response, await response.json(), 400, "malformed_json", instanceOf(o.path));
  });

  it.each(withBody.map((o) => [label(o), o] as const))("%s: text/plain is a 415", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      key,
      headers: { "Content-Type": "text/plain" },
      body: "{}",
    });
    expectProblem(response, await response.json(), 415, "unsupported_media_type", instanceOf(o.path));
  });

  it.each(withBody.map((o) => [label(o), o] as const))("%s: a body over 64 KiB is a 413", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      key,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ notes: "x".repeat(70 * 1024) }),
    });
    expectProblem(response, await response.json(), 413, "payload_too_large");
  });

  it.each(withBody.map((o) => [label(o), o] as const))("%s: a JSON array is a 422", async (_, o) => {
    const response = await raw(o.method, o.path, {
      params: sampleParams,
      key,
      headers: { "Content-Type": "application/json" },
      body: "[]",
    });
    expectProblem(response, await response.json(), 422, "validation_failed");
  });
});
