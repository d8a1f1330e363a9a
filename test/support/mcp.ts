/**
 * Helpers for the MCP tests: JSON-RPC over plain fetch to POST /api/v1/mcp, as an MCP client
 * sends it, and the shapes of its answers. Not a test file.
 */
import { expect } from "vitest";
import { api, json } from "./api";

export const PROTOCOL_VERSION = "2025-06-18";

let nextId = 1;

/** POSTs one JSON-RPC message (or any body) to /mcp with the headers a Streamable HTTP client sends. */
export function postMcp(key: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return api("POST", "/mcp", {
    key,
    body,
    headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL_VERSION, ...headers },
  });
}

/** A JSON-RPC request with a fresh id. */
export const request = (method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method,
  ...(params === undefined ? {} : { params }),
});

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON-RPC answers
export type Answer = any;

/** Sends a request and returns its JSON-RPC response (asserting HTTP 200 JSON with the same id). */
export async function rpc(key: string, method: string, params?: unknown): Promise<Answer> {
  const message = request(method, params);
  const res = await postMcp(key, message);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(res.headers.get("Mcp-Session-Id")).toBeNull();
  expect(body).toMatchObject({ jsonrpc: "2.0", id: message.id });
  return body;
}

/** `tools/call`: the tool result (asserting it is a result, not a JSON-RPC error). */
export async function callTool(key: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const body = await rpc(key, "tools/call", { name, arguments: args });
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  return body.result;
}

/** A successful tool result: its structuredContent (asserting no isError and a text). */
export async function toolOk(key: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await callTool(key, name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.content[0]).toMatchObject({ type: "text", text: expect.any(String) });
  return result.structuredContent;
}

/** A refusal: isError with the problem as text and as JSON; returns the problem and the text. */
export async function toolRefused(
  key: string,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<{ problem: Answer; text: string }> {
  const result = await callTool(key, name, args);
  return refusalOf(result, code);
}

export function refusalOf(result: Answer, code: string): { problem: Answer; text: string } {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [text, data] = result.content;
  expect(text.type).toBe("text");
  const { problem } = JSON.parse(data.text);
  expect(problem.code, text.text).toBe(code);
  expect(text.text).toContain(code);
  return { problem, text: text.text };
}
