/**
 * Whatever a client sends to POST /mcp, the answer is a JSON-RPC response, a tool result or a
 * 4xx problem: never a 5xx, never a stack trace.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { api, createAccount, createService } from "../support/api";
import { check } from "../support/fuzz";
import { PROTOCOL_VERSION, postMcp } from "../support/mcp";

const toolNames = [
  "list_services",
  "find_availability",
  "hold_slot",
  "book_appointment",
  "reschedule_booking",
  "cancel_booking",
  "list_bookings",
  "find_customers",
];
const argumentNames = [
  "serviceId",
  "bookingId",
  "from",
  "to",
  "providerId",
  "startTime",
  "endTime",
  "customerName",
  "customerEmail",
  "customerPhone",
  "notes",
  "holdId",
  "idempotencyKey",
  "reason",
  "ttlSeconds",
  "status",
  "page",
  "limit",
  "search",
  "active",
  "__proto__",
  "constructor",
];

/** Any JSON value, hostile strings included (lone surrogates, control characters, long text). */
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.constantFrom("2026-12-01T10:00:00Z", "2026-02-30T10:00:00Z", "svc_x", "../../etc", "%00", "\uD800", -1, 1e308),
);

const toolArguments = fc.dictionary(fc.constantFrom(...argumentNames), hostileValue, { maxKeys: 6 });

const jsonRpcish = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue()),
      method: fc.oneof(
        fc.constantFrom(
          "initialize",
          "tools/list",
          "tools/call",
          "ping",
          "notifications/initialized",
          "resources/list",
        ),
        fc.string(),
      ),
      params: fc.oneof(
        fc.record({ name: fc.oneof(fc.constantFrom(...toolNames), fc.string()), arguments: toolArguments }),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

/** The answer is not a 5xx, is JSON or empty, and says nothing of the code inside. */
async function expectSane(res: Response, sent: unknown) {
  const text = await res.text();
  const context = `${res.status} for ${JSON.stringify(sent)?.slice(0, 300)}: ${text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(text, context).not.toMatch(/\bat [\w$.<>]+ \(|\.ts:\d+|node_modules/);
  if (text) expect(() => JSON.parse(text), context).not.toThrow();
  return text ? JSON.parse(text) : undefined;
}

describe("fuzz", () => {
  it("JSON-RPC-like messages of any shape never get a 5xx", async () => {
    const { apiKey } = await createAccount();
    await check(
      jsonRpcish,
      async (message) => {
        await expectSane(await postMcp(apiKey, message), message);
      },
      60,
    );
  });

  it("a request of a method it answers, with any params, gets a result or a JSON-RPC error other than -32603", async () => {
    const { apiKey } = await createAccount();
    const params = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(
        fc.constantFrom("protocolVersion", "capabilities", "clientInfo", "cursor", "name", "_meta"),
        hostileValue,
        {
          maxKeys: 4,
        },
      ),
    );
    await check(
      fc.tuple(fc.constantFrom("initialize", "ping", "tools/list", "tools/call"), fc.option(params), fc.nat()),
      async ([method, value, id]) => {
        const message = { jsonrpc: "2.0", id, method, ...(value === null ? {} : { params: value }) };
        const res = await postMcp(apiKey, message);
        const body = await expectSane(res, message);
        const context = JSON.stringify(body)?.slice(0, 300);
        if (res.status === 422) return void expect(body.code).toBe("validation_failed");
        expect(res.status, context).toBe(200);
        expect(body.id, context).toBe(id);
        if (!body.error) return;
        // A client's mistake is never the server's internal error, nor answered with the validator's dump.
        expect(body.error.code, context).not.toBe(-32603);
        expect(body.error.message, context).not.toMatch(/"(code|path|expected)":/);
      },
      80,
    );
  });

  it("tools/call with hostile or wrongly typed arguments answers a result or a JSON-RPC error, never a 5xx", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await check(
      fc.tuple(fc.constantFrom(...toolNames), toolArguments, fc.boolean()),
      async ([name, args, withService]) => {
        const message = {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name, arguments: withService ? { ...args, serviceId: service.id } : args },
        };
        const res = await postMcp(apiKey, message);
        const body = await expectSane(res, message);
        // Text that is not well-formed Unicode is refused at the door, as on every route.
        if (res.status === 422) return void expect(body.code).toBe("validation_failed");
        expect(res.status).toBe(200);
        if (body.error) expect(body.error.code).toBeTypeOf("number");
        else if (body.result.isError) expect(body.result.content[0].text).toMatch(/^Refused \(4\d\d /);
        else expect(body.result.structuredContent).toBeTypeOf("object");
      },
      80,
    );
  });

  it("raw bodies (not JSON, truncated, huge) get 4xx problems, never a 5xx", async () => {
    const { apiKey } = await createAccount();
    await check(
      fc.oneof(fc.string({ unit: "binary", maxLength: 200 }), fc.string({ minLength: 60_000, maxLength: 70_000 })),
      async (raw) => {
        const res = await api("POST", "/mcp", {
          key: apiKey,
          rawBody: raw,
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL_VERSION,
          },
        });
        await expectSane(res, raw);
      },
      30,
    );
  });
});
