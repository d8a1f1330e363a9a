/**
 * JSON-RPC params of the methods POST /mcp answers: missing or of the wrong shape, a request is
 * answered -32602 (invalid params) with its own id and a one-line message naming the method and
 * the field, never -32603 (internal error) and never a dump of the validation issues; a
 * notification with bad params is a 400 with the same error. Well-formed params still work.
 */
import { describe, expect, it } from "vitest";
import { createAccount, json } from "../support/api";
import { type Answer, PROTOCOL_VERSION, postMcp, rpc } from "../support/mcp";

let nextId = 1_000;

/** Posts a request with exactly these members (params may be absent) and reads the answer. */
async function send(key: string, method: string, params?: { value: unknown }) {
  const id = nextId++;
  const message = { jsonrpc: "2.0", id, method, ...(params ? { params: params.value } : {}) };
  const res = await postMcp(key, message);
  return { id, res, body: await json(res) };
}

/** An invalid-params answer: HTTP 200, the request's id, -32602 and a short message naming `field`. */
function expectInvalidParams(sent: { id: number; res: Response; body: Answer }, method: string, field: string) {
  const shown = JSON.stringify(sent.body);
  expect(sent.res.status, shown).toBe(200);
  expect(sent.body, shown).toMatchObject({ jsonrpc: "2.0", id: sent.id, error: { code: -32602 } });
  const { message } = sent.body.error;
  expect(message, shown).toContain(method);
  expect(message, shown).toContain(field);
  // One line, not the validator's issue list.
  expect(message.length, shown).toBeLessThan(200);
  expect(message, shown).not.toMatch(/[\n[{]|"code"|invalid_type/);
  expect(sent.body.error.data, shown).toBeUndefined();
}

describe("error", () => {
  it("initialize without params is -32602 invalid params, not -32603", async () => {
    const { apiKey } = await createAccount();
    expectInvalidParams(await send(apiKey, "initialize"), "initialize", "params");
  });

  it("initialize with params of the wrong shape is -32602 naming the first bad field", async () => {
    const { apiKey } = await createAccount();
    const wrongVersion = { value: { protocolVersion: 5, capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    expectInvalidParams(await send(apiKey, "initialize", wrongVersion), "initialize", "params.protocolVersion");
    const noClient = { value: { protocolVersion: PROTOCOL_VERSION, capabilities: {} } };
    expectInvalidParams(await send(apiKey, "initialize", noClient), "initialize", "params.clientInfo");
  });

  it("tools/list with a cursor that is not a string is -32602", async () => {
    const { apiKey } = await createAccount();
    expectInvalidParams(await send(apiKey, "tools/list", { value: { cursor: 5 } }), "tools/list", "params.cursor");
  });

  it("tools/call without params, or with a name that is not a string, is -32602 with a short message", async () => {
    const { apiKey } = await createAccount();
    expectInvalidParams(await send(apiKey, "tools/call"), "tools/call", "params");
    expectInvalidParams(await send(apiKey, "tools/call", { value: { name: 5 } }), "tools/call", "params.name");
  });

  it.each([
    ["ping", "a string", "x"],
    ["ping", "an array", [1]],
    ["tools/list", "an array", [1]],
    ["tools/list", "null", null],
    ["initialize", "a number", 1],
    ["tools/call", "an array", ["list_services", {}]],
    ["ping", "_meta that is not an object", { _meta: 5 }],
  ])("%s with params that are %s answers -32602 with the request's id", async (method, _, value) => {
    const { apiKey } = await createAccount();
    expectInvalidParams(await send(apiKey, method, { value }), method, "params");
  });

  it("a notification with bad params is a 400 carrying -32602 (there is no id to answer)", async () => {
    const { apiKey } = await createAccount();
    for (const params of ["x", [1], { _meta: 5 }]) {
      const res = await postMcp(apiKey, { jsonrpc: "2.0", method: "notifications/initialized", params });
      const body = await json(res);
      const shown = JSON.stringify(body);
      expect(res.status, shown).toBe(400);
      expect(body, shown).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32602 } });
      expect(body.error.message, shown).toContain("notifications/initialized");
      expect(body.error.message, shown).not.toMatch(/[\n[{]/);
    }
  });
});

describe("happy", () => {
  it("well-formed params still work: ping with {} or none, tools/list with a cursor, the initialized notification", async () => {
    const { apiKey } = await createAccount();
    expect((await rpc(apiKey, "ping", {})).result).toEqual({});
    expect((await rpc(apiKey, "ping", { _meta: {} })).result).toEqual({});
    expect((await rpc(apiKey, "tools/list", { cursor: "x" })).result.tools.length).toBe(8);
    const note = await postMcp(apiKey, { jsonrpc: "2.0", method: "notifications/initialized", params: {} });
    expect(note.status).toBe(202);
  });

  it("a method it does not know is still -32601, whatever its params", async () => {
    const { apiKey } = await createAccount();
    const sent = await send(apiKey, "resources/list", { value: { cursor: 5 } });
    expect(sent.body).toMatchObject({ id: sent.id, error: { code: -32601 } });
  });
});
