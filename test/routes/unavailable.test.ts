/**
 * Platform overload and resets are a 503 `unavailable` with `Retry-After`, not a 500: faults
 * injected into the real D1 database (a trigger raising D1's own overload message) and the real
 * calendar Durable Object (aborted while it serves a booking).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { isTransientFailure } from "../../src/lib/transient";
import { api, createAccount, createService, json, problem } from "../support/api";
import { at, bookingBody, calendarStub, postBooking } from "../support/bookings";
import { resetOnceOutboxHolds } from "../support/faults";

afterEach(() => vi.restoreAllMocks());

/** Makes D1 fail inserts of customers with this e-mail with `message`, as the database itself. */
async function failCustomerInsert(email: string, message: string) {
  const name = `test_fail_${crypto.randomUUID().replaceAll("-", "")}`;
  await env.DB_0.prepare(
    `CREATE TRIGGER ${name} BEFORE INSERT ON customers WHEN NEW.email = '${email}' BEGIN SELECT RAISE(ABORT, '${message}'); END`,
  ).run();
}

async function expectUnavailable(res: Response) {
  const text = await res.clone().text();
  const body = await problem(res, 503, "unavailable");
  expect(res.headers.get("Retry-After")).toMatch(/^[1-9]\d*$/);
  expect(body.detail).toMatch(/retry/i);
  expect(text).not.toMatch(/SQL|INSERT|overloaded|stack/i);
  return body;
}

describe("D1 overload", () => {
  it.each([
    "D1 DB is overloaded. Requests queued for too long.",
    "D1 DB storage operation exceeded timeout which caused object to be reset.",
    "Network connection lost.",
  ])("a D1 error saying %j is a 503 with Retry-After, and nothing is stored", async (message) => {
    const { apiKey } = await createAccount();
    const email = `${crypto.randomUUID()}@example.com`;
    await failCustomerInsert(email, message);
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await api("POST", "/customers", {
      key: apiKey,
      body: { name: "Busy", email },
      headers: { "X-Request-Id": "busy-request" },
    });
    const body = await expectUnavailable(res);
    expect(body.requestId).toBe("busy-request");
    expect(warned.mock.calls.flat().join(" ")).toContain("busy-request");
    expect((await json(await api("GET", "/customers", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("any other D1 error stays a 500 internal_error", async () => {
    const { apiKey } = await createAccount();
    const email = `${crypto.randomUUID()}@example.com`;
    await failCustomerInsert(email, "constraint of a test trigger");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await api("POST", "/customers", { key: apiKey, body: { name: "Broken", email } });
    await problem(res, 500, "internal_error");
    expect(res.headers.get("Retry-After")).toBeNull();
  });
});

describe("Durable Object reset", () => {
  it("a booking whose calendar is reset mid-call is a 503 with Retry-After; the retry succeeds", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey, { capacity: 1000 });
    const stub = calendarStub(businessId, service.id);
    vi.spyOn(console, "warn").mockImplementation(() => {});

    const body = bookingBody(service.id, at(3, "10:00"));
    const [res] = await Promise.all([postBooking(apiKey, body, "reset-key"), resetOnceOutboxHolds(stub)]);
    if (res.status === 201) return expect.fail("the reset landed after the call completed; no fault injected");
    await expectUnavailable(res);

    // The same request again (same Idempotency-Key) books the slot once.
    const retry = await postBooking(apiKey, body, "reset-key");
    expect(retry.status).toBe(201);
  });

  it("the runtime's reset error is recognised (durableObjectReset), unknown errors are not", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const stub = calendarStub(businessId, service.id);
    const reset = await runInDurableObject(stub, (_instance: ServiceCalendar, state) => state.abort("reset")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTransientFailure(reset)).toBe(true);
    expect(isTransientFailure(new Error("no such table: customers"))).toBe(false);
    expect(isTransientFailure(new Error("wrapper", { cause: reset }))).toBe(true);
  });
});
