/**
 * `POST /api/v1/mcp`: the API as a Model Context Protocol server (Streamable HTTP, stateless).
 * Every POST stands alone: no session id, nothing kept between requests, one JSON answer (never
 * an SSE stream). The HTTP envelope is checked like every REST route (API key, rate limit, body
 * size, media type, a JSON object: RFC 9457 problems); the JSON-RPC message inside is the
 * protocol library's, whose errors are JSON-RPC errors. GET and DELETE answer 405: a stateless
 * server has no stream to open and no session to end.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AppEnv } from "../env";
import { bearerSecurity, emptyResponse, jsonResponse, problemResponses } from "../lib/openapi";
import { z } from "../lib/zod";
import { requireApiKey } from "../middleware/auth";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import { paramsRefusal } from "./params";
import type { RestApp } from "./rest";
import { restOperations } from "./schemas";
import { createServer } from "./server";
import { tools } from "./tools";

/**
 * Any JSON object passes here: what makes it a JSON-RPC message is the protocol library's to
 * judge, and its verdict is a JSON-RPC error. The document describes a valid message.
 */
const JsonRpcMessageSchema = z.looseObject({}).openapi("JsonRpcMessage", {
  description:
    "One JSON-RPC 2.0 message: a request (with `id`), a notification (without) or a response to the server. The methods are MCP's: `initialize`, `notifications/initialized`, `tools/list`, `tools/call`, `ping`.",
  properties: {
    jsonrpc: { type: "string", const: "2.0", example: "2.0" },
    id: { type: ["string", "integer"], description: "Absent on a notification.", example: 1 },
    method: { type: "string", example: "tools/list" },
    params: {
      type: "object",
      description: "For `tools/call`: `name` and `arguments`.",
      example: { name: "list_services", arguments: {} },
    },
  },
  required: ["jsonrpc"],
  example: { jsonrpc: "2.0", id: 1, method: "tools/list" },
});

const JsonRpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.string().or(z.number()).nullable(),
    result: z.looseObject({}).optional().openapi({ description: "The method's result, on success." }),
    error: z.looseObject({ code: z.number().int(), message: z.string() }).optional().openapi({
      description: "Why the request failed: -32700 parse error, -32601 unknown method, -32602 bad params…",
    }),
  })
  .openapi("JsonRpcResponse", {
    description: "The JSON-RPC 2.0 response to the request: `result` or `error`.",
    example: { jsonrpc: "2.0", id: 1, result: { tools: [] } },
  });

const problems = problemResponses(400, 413, 415, 422);

const route = createRoute({
  method: "post",
  path: "/mcp",
  middleware: [requireApiKey, rateLimit, jsonBody] as const,
  operationId: "mcp",
  tags: ["Agents"],
  summary: "Model Context Protocol server",
  description: [
    `The API for AI agents: a Model Context Protocol server over Streamable HTTP. Point an MCP client at this URL with the same \`Authorization: Bearer <API_KEY>\` header. Tools: ${tools.map((t) => `\`${t.name}\``).join(", ")}; each calls the REST operation it mirrors with the caller's key, so its rules, limits and idempotency are that operation's, and each POST also counts against the key's write budget.`,
    "Stateless: no `Mcp-Session-Id`, one JSON-RPC message per POST, answered with one JSON body (never an event stream). A notification or response is accepted with a 202. A request whose `params` do not fit its method is answered with the JSON-RPC error -32602 (invalid params), naming the field; a notification with such `params` is a 400 carrying that error. A refused tool call is a result with `isError: true` carrying the problem details, not an HTTP error.",
  ].join("\n\n"),
  security: bearerSecurity,
  request: {
    headers: z.object({
      "mcp-protocol-version": z
        .string()
        .optional()
        .openapi({
          param: { in: "header" },
          description: "The protocol version agreed in `initialize`; an unsupported one is a 400.",
          example: "2025-06-18",
        }),
    }),
    body: { required: true, content: { "application/json": { schema: JsonRpcMessageSchema } } },
  },
  responses: {
    200: jsonResponse("The JSON-RPC response.", JsonRpcResponseSchema),
    202: emptyResponse("Accepted: the message was a notification or a response, which get no answer."),
    ...problems,
    400: {
      ...problems[400],
      description:
        "Malformed JSON (a problem), or a JSON-RPC error for a message that is not valid JSON-RPC, a notification whose `params` do not fit its method (-32602), or an unsupported `MCP-Protocol-Version`.",
      content: { ...problems[400].content, "application/json": { schema: JsonRpcResponseSchema } },
    },
  },
});

/**
 * Mounts `POST /mcp` on the API; call it after the REST routes, whose operations the tools call
 * in-process through `restApp` (the Worker app, handed in so that this module does not import it).
 */
export const registerMcp = (api: OpenAPIHono<AppEnv>, restApp: RestApp) => {
  const operations = restOperations(api);
  for (const tool of tools) {
    if (!operations.has(tool.operationId)) throw new Error(`MCP tool ${tool.name}: no operation ${tool.operationId}.`);
  }
  return api.openapi(route, async (c) => {
    const message = c.req.valid("json");
    const refused = paramsRefusal(message);
    if (refused) return c.json(refused.body, refused.status);
    const server = createServer(c, operations, restApp);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    // The message was read and checked above; the transport gets it parsed. This server answers
    // JSON only, so the client's Accept is not held against it.
    const headers = new Headers({ "Content-Type": "application/json", Accept: "application/json, text/event-stream" });
    const version = c.req.header("MCP-Protocol-Version");
    if (version !== undefined) headers.set("MCP-Protocol-Version", version);
    const request = new Request(c.req.url, { method: "POST", headers });
    const answer = await transport.handleRequest(request, { parsedBody: message });
    // Through the context, so the headers the middleware set (X-Request-Id…) are kept.
    return c.newResponse(answer.body, answer);
  });
};
