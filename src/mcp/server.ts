/**
 * One MCP server per POST: the SDK's protocol `Server` with `tools/list` and `tools/call`. A call
 * checks its arguments with the REST route's own schemas, sends the REST request in-process and
 * turns the answer into a tool result: the JSON as `structuredContent` with a short text, or, for
 * a refusal, `isError` with the problem details as text and as JSON.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { callTool } from "./call-tool";
import { listTools } from "./list-tools";
import { type RestApp, restFor } from "./rest";
import type { RestOperation } from "./schemas";
import { tools } from "./tools";

/**
 * This server never validates JSON Schemas itself (it asks clients for nothing): arguments are
 * checked by the REST routes' zod schemas. The SDK's default validator, Ajv, compiles schemas to
 * code, which Workers do not allow; it is not in the bundle (see wrangler.toml).
 */
const noSchemaValidation: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: "This server does not validate JSON Schemas.",
  }),
};

const instructions = (businessName: string) =>
  `Books appointments for ${businessName}. Usual flow: list_services for the serviceId; find_availability for free slots; hold_slot to keep one while you ask for the customer's name and e-mail; book_appointment with the holdId and an idempotencyKey. list_bookings and find_customers look things up; reschedule_booking and cancel_booking change a booking by its id. Times are UTC instants with a trailing Z; pass slot times unchanged. A result with isError is a refusal: read its problem code and detail, fix the arguments or pick another slot, and retry writes with the same idempotencyKey.`;

/** A fresh protocol server for one request, its tools reaching REST through `c`. */
export function createServer(c: Context<AppEnv>, operations: Map<string, RestOperation>, restApp: RestApp): Server {
  const server = new Server(
    { name: "booking-api", title: "Booking API", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: instructions(c.var.caller.businessName),
      jsonSchemaValidator: noSchemaValidation,
    },
  );
  const rest = restFor(c, restApp);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listTools(rest) }));
  // Its params were checked before the message got here (./params): this parse cannot fail.
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    const operation = tool && operations.get(tool.operationId);
    if (!tool || !operation) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. See tools/list.`);
    }
    return callTool(c, rest, tool, operation, { ...request.params.arguments });
  });
  return server;
}
