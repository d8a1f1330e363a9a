/** POST /api/v1/mcp as a protocol endpoint: handshake, tool list, HTTP envelope, keys. */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "../../../src/db/schema";
import { api, createAccount, db, json, problem } from "../../support/api";
import { PROTOCOL_VERSION, postMcp, request, rpc } from "../../support/mcp";

const toolNames = [
  "book_appointment",
  "cancel_booking",
  "find_availability",
  "find_customers",
  "hold_slot",
  "list_bookings",
  "list_services",
  "reschedule_booking",
];

describe("happy", () => {
  describe("the handshake", () => {
    it("initialize answers the server's info, tools capability and instructions, without a session id", async () => {
      const { apiKey } = await createAccount("Handshake Salon");
      const body = await rpc(apiKey, "initialize", {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "test", version: "1" },
      });
      expect(body.result.protocolVersion).toBe(PROTOCOL_VERSION);
      expect(body.result.serverInfo).toMatchObject({ name: "booking-api" });
      expect(body.result.capabilities.tools).toBeDefined();
      expect(body.result.instructions).toContain("Handshake Salon");
    });

    it("accepts the initialized notification with a 202 and no body", async () => {
      const { apiKey } = await createAccount();
      const res = await postMcp(apiKey, { jsonrpc: "2.0", method: "notifications/initialized" });
      expect(res.status).toBe(202);
      expect(await res.text()).toBe("");
    });

    it("answers ping", async () => {
      const { apiKey } = await createAccount();
      expect((await rpc(apiKey, "ping")).result).toEqual({});
    });
  });

  describe("tools/list", () => {
    it("lists the eight tools, each described, with object input and output schemas Ajv 2020 compiles", async () => {
      const { apiKey } = await createAccount();
      const { result } = await rpc(apiKey, "tools/list");
      expect(result.tools.map((t: { name: string }) => t.name).sort()).toEqual(toolNames);
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      for (const tool of result.tools) {
        expect(tool.description.length, tool.name).toBeGreaterThan(80);
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          expect(schema.type, tool.name).toBe("object");
          expect(ajv.validateSchema(schema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
          expect(() => ajv.compile(schema), tool.name).not.toThrow();
        }
        expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
      }
    });

    it("uses the REST field names, and idempotencyKey where the REST call takes an Idempotency-Key", async () => {
      const { apiKey } = await createAccount();
      const { result } = await rpc(apiKey, "tools/list");
      const input = (name: string) => result.tools.find((t: { name: string }) => t.name === name).inputSchema;
      expect(Object.keys(input("find_availability").properties).sort()).toEqual([
        "from",
        "providerId",
        "resourceId",
        "serviceId",
        "to",
      ]);
      expect(input("find_availability").required).toEqual(["serviceId"]);
      expect(Object.keys(input("book_appointment").properties)).toEqual(
        expect.arrayContaining(["serviceId", "startTime", "endTime", "customerName", "customerEmail", "holdId"]),
      );
      for (const name of ["book_appointment", "reschedule_booking", "cancel_booking"]) {
        expect(input(name).properties.idempotencyKey, name).toMatchObject({ type: "string", maxLength: 255 });
      }
      expect(input("hold_slot").properties.idempotencyKey).toBeUndefined();
      expect(input("reschedule_booking").required.sort()).toEqual(["bookingId", "endTime", "startTime"]);
      expect(input("find_customers").properties.search).toMatchObject({ type: "string", maxLength: 200 });
      // The REST rule for instants, and its example, reach the model.
      expect(input("hold_slot").properties.startTime).toMatchObject({
        format: "date-time",
        examples: [expect.any(String)],
      });
    });
  });

  describe("the HTTP envelope", () => {
    it("states the write budget of the key (the POST is rate limited like any write)", async () => {
      const { apiKey } = await createAccount();
      const res = await postMcp(apiKey, request("ping"));
      expect(res.status).toBe(200);
      expect(res.headers.get("RateLimit-Policy")).toMatch(/^"writes";q=\d+;w=\d+$/);
      expect(res.headers.get("X-Request-Id")).toBeTruthy();
    });
  });
});

describe("error", () => {
  describe("JSON-RPC errors", () => {
    it("answers an unknown method with -32601", async () => {
      const { apiKey } = await createAccount();
      const body = await rpc(apiKey, "resources/read", { uri: "x" });
      expect(body.error.code).toBe(-32601);
    });

    it("answers an unknown tool with -32602", async () => {
      const { apiKey } = await createAccount();
      const body = await rpc(apiKey, "tools/call", { name: "drop_tables", arguments: {} });
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toContain("drop_tables");
    });

    it("answers arguments that are not an object with -32602", async () => {
      const { apiKey } = await createAccount();
      const body = await rpc(apiKey, "tools/call", { name: "list_services", arguments: [1, 2] });
      expect(body.error.code).toBe(-32602);
    });

    it("answers an object that is not JSON-RPC with a JSON-RPC error and a 400", async () => {
      const { apiKey } = await createAccount();
      const res = await postMcp(apiKey, { hello: "world" });
      expect(res.status).toBe(400);
      expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
      const body = await json(res);
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number) } });
    });

    it("answers an unsupported MCP-Protocol-Version with a JSON-RPC error and a 400", async () => {
      const { apiKey } = await createAccount();
      const res = await postMcp(apiKey, request("tools/list"), { "MCP-Protocol-Version": "1999-01-01" });
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toMatch(/protocol version/i);
    });
  });

  describe("the HTTP envelope", () => {
    it("answers GET and DELETE with a 405 problem naming POST in Allow", async () => {
      const { apiKey } = await createAccount();
      for (const method of ["GET", "DELETE"]) {
        const res = await api(method, "/mcp", { key: apiKey, headers: { Accept: "text/event-stream" } });
        await problem(res, 405, "method_not_allowed");
        expect(res.headers.get("Allow"), method).toBe("POST");
      }
    });
    it("answers malformed JSON with a 400 problem", async () => {
      const { apiKey } = await createAccount();
      const res = await api("POST", "/mcp", {
        key: apiKey,
        rawBody: '{"jsonrpc":"2.0",',
        headers: { "Content-Type": "application/json" },
      });
      await problem(res, 400, "malformed_json");
    });
    it("answers another media type with a 415 problem", async () => {
      const { apiKey } = await createAccount();
      const res = await api("POST", "/mcp", {
        key: apiKey,
        rawBody: "ping",
        headers: { "Content-Type": "text/plain" },
      });
      await problem(res, 415, "unsupported_media_type");
    });
    it("answers a batch (a JSON array) with a 422 problem: one message per POST", async () => {
      const { apiKey } = await createAccount();
      const res = await postMcp(apiKey, [request("ping"), request("ping")]);
      await problem(res, 422, "validation_failed");
    });
    it("answers a body over 64 KiB with a 413 problem", async () => {
      const { apiKey } = await createAccount();
      const notes = "x".repeat(70 * 1024);
      const res = await postMcp(apiKey, request("tools/call", { name: "list_services", arguments: { notes } }));
      await problem(res, 413, "payload_too_large");
    });
  });
});

describe("security", () => {
  it("refuses a request without a key with a 401 problem before anything runs", async () => {
    const res = await postMcp(null, request("tools/call", { name: "list_services", arguments: {} }));
    await problem(res, 401, "unauthorized");
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
  });

  it("refuses an unknown key with a 401 problem", async () => {
    const res = await postMcp("bk_test_0000000000000000000000000x", request("tools/list"));
    await problem(res, 401, "unauthorized");
  });

  it("refuses a key revoked after use with a 401 on the next call", async () => {
    const { apiKey, businessId } = await createAccount();
    await rpc(apiKey, "tools/call", { name: "list_services", arguments: {} });
    await db().update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(eq(apiKeys.businessId, businessId));
    const res = await postMcp(apiKey, request("tools/call", { name: "list_services", arguments: {} }));
    await problem(res, 401, "unauthorized");
  });
});
