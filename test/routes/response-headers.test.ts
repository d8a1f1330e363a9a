/** Response headers: sent where the document says, and declared wherever they are sent. */
import { beforeAll, describe, expect, it } from "vitest";
import { type ContractChecker, createContractChecker } from "../e2e/contract";
import { api, createAccount, createService, json } from "../support/api";
import { at, bookingBody } from "../support/bookings";

const readsPolicy = '"reads";q=600;w=60';
const writesPolicy = '"writes";q=300;w=60';

describe("RateLimit-Policy", () => {
  it("is on problem answers of an authenticated key too (404, 422, 409, 400), not only on successes", async () => {
    const { apiKey } = await createAccount();
    const email = `${crypto.randomUUID()}@example.com`;
    await api("POST", "/customers", { key: apiKey, body: { name: "Ada", email } });
    const cases: [string, string, string | undefined, number, string][] = [
      ["GET", "/services/svc_unknown", undefined, 404, readsPolicy],
      ["GET", "/bookings?limit=0", undefined, 422, readsPolicy],
      ["POST", "/customers", JSON.stringify({ name: "Ada", email }), 409, writesPolicy],
      ["POST", "/customers", "{", 400, writesPolicy],
    ];
    for (const [method, path, rawBody, status, policy] of cases) {
      const res = await api(method, path, { key: apiKey, rawBody, headers: { "Content-Type": "application/json" } });
      await res.body?.cancel();
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.headers.get("RateLimit-Policy"), `${method} ${path} ${status}`).toBe(policy);
    }
  });

  it("is not on a 401: no budget is known before the key is", async () => {
    const res = await api("GET", "/services", { key: "bk_test_unknownUnknownUnknown00000" });
    await res.body?.cancel();
    expect(res.status).toBe(401);
    expect(res.headers.get("RateLimit-Policy")).toBeNull();
  });
});

describe("every answer declares the headers it carries (contract checker, headers included)", () => {
  let checker: ContractChecker;
  beforeAll(async () => {
    checker = createContractChecker(await json(await api("GET", "/openapi.json")));
  });

  /** Sends a request and returns the checker's findings for its answer, with the status. */
  async function check(method: string, path: string, options: Parameters<typeof api>[2] = {}) {
    const res = await api(method, path, options);
    const body = await res.text();
    const found = checker.violations({ method, path, status: res.status, headers: res.headers, body });
    return { status: res.status, found, headers: res.headers };
  }

  it("problem answers: 400, 401 (with and without a key), 404, 409, 412, 413, 415, 422", async () => {
    const { apiKey: key } = await createAccount();
    const service = await createService(key);
    const email = `${crypto.randomUUID()}@example.com`;
    await api("POST", "/customers", { key, body: { name: "Ada", email } });
    const json = { "Content-Type": "application/json" };
    const cases: [number, string, string, Parameters<typeof api>[2]][] = [
      [401, "GET", "/services", {}],
      [401, "GET", "/bookings", { key: "bk_test_unknownUnknownUnknown00000" }],
      [404, "GET", "/services/svc_unknown", { key }],
      [422, "GET", "/bookings?from=2026-11-23T14:00:00%2B01:00", { key }],
      [400, "POST", "/customers", { key, rawBody: "{", headers: json }],
      [415, "POST", "/customers", { key, rawBody: "{}", headers: { "Content-Type": "text/plain" } }],
      [413, "POST", "/customers", { key, rawBody: "x".repeat(70_000), headers: json }],
      [409, "POST", "/customers", { key, body: { name: "Ada", email } }],
      [412, "PATCH", `/services/${service.id}`, { key, body: { name: "X" }, headers: { "If-Match": '"stale"' } }],
    ];
    for (const [status, method, path, options] of cases) {
      const answer = await check(method, path, options);
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.found, `${method} ${path} ${status}`).toEqual([]);
    }
  });

  it("conditional answers: ETag on 200, 304 and PATCH", async () => {
    const { apiKey: key } = await createAccount();
    const service = await createService(key);
    const got = await check("GET", `/services/${service.id}`, { key });
    expect([got.status, got.found]).toEqual([200, []]);
    const etag = got.headers.get("ETag") ?? "";
    const notModified = await check("GET", `/services/${service.id}`, { key, headers: { "If-None-Match": etag } });
    expect([notModified.status, notModified.found]).toEqual([304, []]);
    const patched = await check("PATCH", `/services/${service.id}`, {
      key,
      body: { name: "Y" },
      headers: { "If-Match": etag },
    });
    expect([patched.status, patched.found]).toEqual([200, []]);
  });

  it("an idempotent replay: Location and Idempotent-Replayed on the 201", async () => {
    const { apiKey: key } = await createAccount();
    const service = await createService(key);
    const body = bookingBody(service.id, at(2, "10:00"));
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await check("POST", "/bookings", { key, body, headers });
    expect([first.status, first.found, first.headers.get("Idempotent-Replayed")]).toEqual([201, [], null]);
    const replay = await check("POST", "/bookings", { key, body, headers });
    expect([replay.status, replay.found, replay.headers.get("Idempotent-Replayed")]).toEqual([201, [], "true"]);
    expect(replay.headers.get("Location")).toBe(first.headers.get("Location"));
  });

  it("a slot taken: 409 with RateLimit-Policy and no Retry-After", async () => {
    const { apiKey: key } = await createAccount();
    const service = await createService(key);
    const body = bookingBody(service.id, at(2, "12:00"));
    expect((await check("POST", "/bookings", { key, body })).status).toBe(201);
    const taken = await check("POST", "/bookings", { key, body: { ...body, customerEmail: "other@example.com" } });
    expect([taken.status, taken.found, taken.headers.get("Retry-After")]).toEqual([409, [], null]);
  });
});
