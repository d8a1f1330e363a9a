/**
 * Per-API-key rate limits. Runs in the "edges" project (vitest.config.ts), whose Miniflare gives
 * READ_LIMITER/WRITE_LIMITER small budgets (and READ_BUDGET/WRITE_BUDGET to match), so a burst
 * over a budget takes a handful of requests instead of hundreds.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/lib/crypto";
import { createContractChecker } from "../e2e/contract";
import { api, createAccount, json, problem, totalOf } from "../support/api";
import { addApiKey, awayFromWindowEdge, budgetOf, postCustomer, sequential } from "../support/edges";

const reads = budgetOf("READ_BUDGET");
const writes = budgetOf("WRITE_BUDGET");
const readsPolicy = `"reads";q=${reads.limit};w=${reads.period}`;
const writesPolicy = `"writes";q=${writes.limit};w=${writes.period}`;

beforeAll(() => {
  // The project must really run with small budgets, or these tests would prove nothing quickly.
  expect(writes.limit).toBeLessThanOrEqual(20);
  expect(reads.limit).toBeLessThanOrEqual(20);
});

/** Asserts a 429 `rate_limited` answer for the named budget, with its headers. */
async function expectRateLimited(res: Response, name: "reads" | "writes", budget: { limit: number; period: number }) {
  const body = await problem(res, 429, "rate_limited");
  expect(body.type).toMatch(/\/problems\/rate_limited$/);
  expect(body.requestId).toBe(res.headers.get("X-Request-Id"));
  const retryAfter = Number(res.headers.get("Retry-After"));
  expect(Number.isInteger(retryAfter), `Retry-After: ${res.headers.get("Retry-After")}`).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(budget.period);
  expect(res.headers.get("RateLimit-Policy")).toBe(`"${name}";q=${budget.limit};w=${budget.period}`);
  expect(res.headers.get("RateLimit")).toMatch(new RegExp(`^"${name}";r=0;t=\\d+$`));
  return body;
}

describe("write budget", () => {
  it("answers 429 problem+json with Retry-After and RateLimit headers once the burst exceeds it; nothing more is created", async () => {
    const { apiKey } = await createAccount();
    await awayFromWindowEdge(writes.period);
    const allowed = await sequential(writes.limit, () => postCustomer(apiKey));
    for (const r of allowed) {
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get("RateLimit-Policy")).toBe(writesPolicy);
    }
    for (let i = 0; i < 3; i++) await expectRateLimited(await postCustomer(apiKey), "writes", writes);
    // The refused writes did not run: exactly the allowed ones exist.
    expect(await totalOf(apiKey, "/customers")).toBe(writes.limit);
  });

  it("leaves reads with the same key alone", async () => {
    const { apiKey } = await createAccount();
    await awayFromWindowEdge(writes.period);
    await sequential(writes.limit, () => postCustomer(apiKey));
    await expectRateLimited(await postCustomer(apiKey), "writes", writes);
    const res = await api("GET", "/customers", { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Policy")).toBe(readsPolicy);
    expect((await json(res)).pagination.total).toBe(writes.limit);
  });

  it("counts PATCH like POST (every non-GET/HEAD method is a write)", async () => {
    const { apiKey } = await createAccount();
    await awayFromWindowEdge(writes.period);
    const created = await postCustomer(apiKey);
    expect(created.status).toBe(201);
    const service = await api("POST", "/services", {
      key: apiKey,
      body: {
        name: "Consultation",
        durationMinutes: 30,
        timezone: "UTC",
        weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] },
      },
    });
    expect(service.status).toBe(201);
    const { id } = await json(service);
    const patches = await sequential(writes.limit - 2, (i) =>
      api("PATCH", `/services/${id}`, { key: apiKey, body: { name: `Consultation ${i}` } }),
    );
    for (const r of patches) expect(r.status, r.text).toBe(200);
    await expectRateLimited(
      await api("PATCH", `/services/${id}`, { key: apiKey, body: { name: "Too many" } }),
      "writes",
      writes,
    );
    const after = await json(await api("GET", `/services/${id}`, { key: apiKey }));
    expect(after.name).toBe(`Consultation ${writes.limit - 3}`);
  });
});

describe("the document", () => {
  it("declares the headers of a 429 (Retry-After, RateLimit-Policy, RateLimit) and of the 2xx before it", async () => {
    const checker = createContractChecker(await json(await api("GET", "/openapi.json")));
    const { apiKey } = await createAccount();
    await awayFromWindowEdge(reads.period);
    const answers = await sequential(reads.limit + 1, () => api("GET", "/customers", { key: apiKey }));
    expect(answers.map((a) => a.status)).toEqual([...Array(reads.limit).fill(200), 429]);
    for (const answer of answers) {
      const observed = { method: "GET", path: "/customers", ...answer, body: answer.text };
      expect(checker.violations(observed), `${answer.status}`).toEqual([]);
    }
  });
});

describe("read budget", () => {
  it("answers 429 once the reads exceed it, while writes with the same key still pass", async () => {
    const { apiKey } = await createAccount();
    await awayFromWindowEdge(reads.period);
    const allowed = await sequential(reads.limit, () => api("GET", "/services", { key: apiKey }));
    for (const r of allowed) {
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get("RateLimit-Policy")).toBe(readsPolicy);
    }
    await expectRateLimited(await api("GET", "/services", { key: apiKey }), "reads", reads);
    // Any read counts against the same budget, whatever the resource.
    await expectRateLimited(await api("GET", "/bookings", { key: apiKey }), "reads", reads);
    await expectRateLimited(
      await api("GET", "/customers/cus_01jd3k5v7q8r9s0t1u2v3w4x5y", { key: apiKey }),
      "reads",
      reads,
    );

    const write = await postCustomer(apiKey);
    expect(write.status).toBe(201);
    expect(write.headers.get("RateLimit-Policy")).toBe(writesPolicy);
  });
});

describe("budgets are per API key", () => {
  it("another key of the same business, and another business, are unaffected by an exhausted key", async () => {
    const { businessId, apiKey: first } = await createAccount();
    const second = await addApiKey(businessId);
    const { apiKey: other } = await createAccount("Other Business");
    await awayFromWindowEdge(Math.max(reads.period, writes.period), 15_000);

    await sequential(writes.limit, () => postCustomer(first));
    await sequential(reads.limit, () => api("GET", "/customers", { key: first }));
    await expectRateLimited(await postCustomer(first), "writes", writes);
    await expectRateLimited(await api("GET", "/customers", { key: first }), "reads", reads);

    for (const key of [second, other]) {
      const write = await postCustomer(key);
      expect(write.status, await write.clone().text()).toBe(201);
      expect(write.headers.get("RateLimit-Policy")).toBe(writesPolicy);
      const read = await api("GET", "/customers", { key });
      expect(read.status).toBe(200);
      expect(read.headers.get("RateLimit-Policy")).toBe(readsPolicy);
    }
    // The second key sees the same business's data, including what the first key created.
    expect(await totalOf(second, "/customers")).toBe(writes.limit + 1);
  });
});

describe("successful responses state the policy", () => {
  it("carries RateLimit-Policy on 2xx reads and writes of every resource", async () => {
    const { apiKey } = await createAccount();
    const cases: [string, string, unknown, string][] = [
      ["GET", "/services", undefined, readsPolicy],
      ["GET", "/customers", undefined, readsPolicy],
      ["GET", "/bookings", undefined, readsPolicy],
      ["POST", "/customers", { name: "Ada", email: `${crypto.randomUUID()}@example.com` }, writesPolicy],
    ];
    for (const [method, path, body, policy] of cases) {
      const res = await api(method, path, { key: apiKey, body });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      expect(res.headers.get("RateLimit-Policy"), `${method} ${path}`).toBe(policy);
    }
  });
});

describe("public routes are never limited", () => {
  it("/health, /openapi.json and /docs answer 50 calls each without 429, also with an exhausted key", async () => {
    const { apiKey } = await createAccount();
    await awayFromWindowEdge(Math.max(reads.period, writes.period), 15_000);
    await sequential(reads.limit, () => api("GET", "/services", { key: apiKey }));
    await sequential(writes.limit, () => postCustomer(apiKey));
    await expectRateLimited(await api("GET", "/services", { key: apiKey }), "reads", reads);
    await expectRateLimited(await postCustomer(apiKey), "writes", writes);

    for (const path of ["/health", "/openapi.json", "/docs"]) {
      for (const key of [null, apiKey]) {
        const responses = await sequential(50, () => api("GET", path, { key }));
        const statuses = new Set(responses.map((r) => r.status));
        expect([...statuses], `${path} ${key ? "with" : "without"} a key`).toEqual([200]);
        for (const r of responses) {
          expect(r.headers.get("RateLimit-Policy")).toBeNull();
          expect(r.headers.get("Retry-After")).toBeNull();
        }
      }
    }
  });
});

describe("unknown keys", () => {
  it("lookups that find no key count against the read budget per client address; then unknown keys get 429", async () => {
    await awayFromWindowEdge(reads.period);
    const from = { "CF-Connecting-IP": "203.0.113.77" };
    const answers: number[] = [];
    for (let i = 0; i < reads.limit + 2; i++) {
      const res = await api("GET", "/services", { key: generateApiKey("test"), headers: from });
      answers.push(res.status);
    }
    expect(answers.slice(0, reads.limit)).toEqual(Array(reads.limit).fill(401));
    const last = await api("GET", "/services", { key: generateApiKey("test"), headers: from });
    const body = await problem(last, 429, "rate_limited");
    expect(body.detail).toMatch(/unknown API keys/);
    expect(last.headers.get("Retry-After")).toBe(String(reads.period));
    expect(last.headers.get("RateLimit")).toMatch(/^"unknown-keys";r=0;t=\d+$/);
    // Another address is not affected, and a valid key from this one is never refused because of it
    // (an office or a carrier's shared address), even one this isolate has not seen before.
    const other = await api("GET", "/services", {
      key: generateApiKey("test"),
      headers: { "CF-Connecting-IP": "203.0.113.78" },
    });
    expect(other.status).toBe(401);
    const { apiKey } = await createAccount();
    expect((await api("GET", "/services", { key: apiKey, headers: from })).status).toBe(200);
    expect(
      (await api("POST", "/customers", { key: apiKey, headers: from, body: { name: "Ada", email: "ada@example.com" } }))
        .status,
    ).toBe(201);
    // The address stays throttled for keys that match nothing.
    await problem(await api("GET", "/services", { key: generateApiKey("test"), headers: from }), 429, "rate_limited");
  });
});
