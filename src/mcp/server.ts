/**
 * One MCP server per POST: the SDK's protocol `Server` with `tools/list` and `tools/call`. A call
 * checks its arguments with the REST route's own schemas, sends the REST request in-process and
 * turns the answer into a tool result: the JSON as `structuredContent` with a short text, or, for
 * a refusal, `isError` with the problem details as text and as JSON.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError, type FieldError } from "../lib/errors";
import { problemResponse } from "../lib/problem";
import { fieldErrors } from "../lib/validation";
import { z } from "../lib/zod";
import { type Rest, type RestAnswer, restFor } from "./rest";
import {
  idempotencyArgument,
  inputSchemaOf,
  type OpenApiDocument,
  outputSchemaOf,
  type RestOperation,
} from "./schemas";
import { bookableSlots, SLOTS_SUGGESTED, type Tool, tools } from "./tools";

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

/** The tools as `tools/list` lists them, built once per isolate from the served OpenAPI document. */
let listed: Promise<McpTool[]> | undefined;

async function toolList(rest: Rest): Promise<McpTool[]> {
  const answer = await rest({ method: "GET", path: "/openapi.json" });
  if (answer.status !== 200) throw new Error(`GET /openapi.json answered ${answer.status}.`);
  const doc = answer.body as OpenApiDocument;
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchemaOf(doc, tool.operationId, tool.idArgument) as McpTool["inputSchema"],
    outputSchema: (tool.outputSchema?.(doc) ?? outputSchemaOf(doc, tool.operationId)) as McpTool["outputSchema"],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.name === "cancel_booking",
      idempotentHint: tool.idempotent,
      openWorldHint: false,
    },
  }));
}

function listTools(rest: Rest): Promise<McpTool[]> {
  listed ??= toolList(rest).catch((error: unknown) => {
    listed = undefined;
    throw error;
  });
  return listed;
}

type Problem = {
  code?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: FieldError[];
  reason?: string;
  [member: string]: unknown;
};

/** A refusal: isError, a sentence for the model, and the problem details (plus any hint data) as JSON. */
function refusal(problem: Problem, hint: Hint = { text: "" }): CallToolResult {
  const errors = (problem.errors ?? []).map((e) => `\n- ${e.path}: ${e.message}`).join("");
  const text = `Refused (${problem.status} ${problem.code}${problem.reason ? `, ${problem.reason}` : ""}): ${problem.detail}${errors}${hint.text}`;
  return {
    isError: true,
    content: [
      { type: "text", text },
      { type: "text", text: JSON.stringify({ problem, ...hint.data }) },
    ],
  };
}

/** What a refusal adds to the problem: a sentence, and the same as data. */
type Hint = { text: string; data?: Record<string, unknown> };

/** The problem of a REST answer that is not a success (a bare status if its body is no problem). */
function problemOf(answer: RestAnswer): Problem {
  const body = answer.body;
  if (body && typeof body === "object" && "code" in body) return body as Problem;
  return {
    status: answer.status,
    code: "unexpected_status",
    title: "Unexpected answer",
    detail: `HTTP ${answer.status}.`,
  };
}

const retryHint = (answer: RestAnswer): Hint => {
  const after = answer.headers.get("Retry-After");
  return { text: after ? `\nRetry after ${after} s.` : "" };
};

/** Checks one part of the request with the route's schema; field errors carry the tool's names. */
function check(
  schema: z.ZodType | undefined,
  values: Record<string, unknown>,
  names: Record<string, string>,
): FieldError[] {
  if (!schema) return [];
  const result = schema.safeParse(values);
  if (result.success) return [];
  return fieldErrors(result.error).map((e) => {
    const [head = "", ...rest] = e.path.split(".");
    return { ...e, path: [names[head] ?? head, ...rest].join(".") };
  });
}

type Args = Record<string, unknown>;

/** The next free slots of a service after a refused time, as a sentence and as data. */
async function nextFreeHint(
  rest: Rest,
  serviceId: unknown,
  problem: Problem,
  startTime: unknown,
  providerId: unknown,
): Promise<Hint> {
  if (typeof serviceId !== "string") return { text: "" };
  const query: Record<string, string> = {};
  const start = typeof startTime === "string" ? Date.parse(startTime) : Number.NaN;
  if (start > Date.now()) query.from = new Date(start).toISOString();
  if (typeof providerId === "string") query.providerId = providerId;
  const path = `/services/${encodeURIComponent(serviceId)}/availability`;
  let answer = await rest({ method: "GET", path, query });
  if (answer.status === 422) {
    // The default week holds more slots than one answer may list: look at the next day only.
    const from = query.from ? Date.parse(query.from) : Date.now();
    answer = await rest({ method: "GET", path, query: { ...query, to: new Date(from + 86_400_000).toISOString() } });
  }
  if (answer.status !== 200) return { text: "" };
  const summary = bookableSlots(answer.body as Parameters<typeof bookableSlots>[0], SLOTS_SUGGESTED);
  const why = problem.reason === "fully_booked" ? "That slot was just taken" : "That slot cannot be booked";
  if (summary.slots.length === 0) {
    return {
      text: `\n${why}, and ${serviceId} has no free slot between ${summary.from} and ${summary.to}.`,
      data: { nextFree: [] },
    };
  }
  const listed = summary.slots.map(
    (slot) => `${slot.startTime}–${slot.endTime}${slot.providers?.length ? ` (${slot.providers.join(", ")})` : ""}`,
  );
  return { text: `\n${why}; next free: ${listed.join(", ")}.`, data: { nextFree: summary.slots } };
}

/** The service a refused write was for: its argument, or the booking's (for a reschedule). */
async function serviceOf(rest: Rest, tool: Tool, args: Args): Promise<unknown> {
  if (args.serviceId !== undefined) return args.serviceId;
  if (tool.idArgument?.name !== "bookingId" || typeof args.bookingId !== "string") return undefined;
  const answer = await rest({ method: "GET", path: `/bookings/${encodeURIComponent(args.bookingId)}` });
  return answer.status === 200 ? (answer.body as { serviceId?: unknown }).serviceId : undefined;
}

async function callTool(c: Context<AppEnv>, rest: Rest, tool: Tool, operation: RestOperation, args: Args) {
  const fields: Args = { ...args };
  const idName = tool.idArgument?.name;
  const id = idName === undefined ? undefined : fields[idName];
  if (idName !== undefined) delete fields[idName];
  const idempotencyKey = operation.takesIdempotencyKey ? fields[idempotencyArgument.name] : undefined;
  if (operation.takesIdempotencyKey) delete fields[idempotencyArgument.name];
  const errors = [
    ...check(operation.params, { id }, { id: idName ?? "id" }),
    ...(operation.takesIdempotencyKey
      ? check(
          operation.headers,
          { [idempotencyArgument.header]: idempotencyKey },
          { [idempotencyArgument.header]: idempotencyArgument.name },
        )
      : []),
    ...(operation.hasBody ? [] : check(operation.query, fields, {})),
  ];
  // An HTTP header carries visible ASCII only: anything else could not reach the REST route as sent.
  if (typeof idempotencyKey === "string" && !/^[\x21-\x7e]*$/.test(idempotencyKey)) {
    errors.push({ path: idempotencyArgument.name, message: "Use 1 to 255 visible ASCII characters." });
  }
  if (errors.length > 0) {
    const invalid = new ApiError("validation_failed", "The tool's arguments are invalid.", { errors });
    return refusal((await problemResponse(c, invalid).json()) as Problem);
  }

  const path = operation.path.replace("{id}", encodeURIComponent(String(id)));
  const answer = await rest({
    method: operation.method,
    path,
    ...(operation.hasBody
      ? { body: fields }
      : { query: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])) }),
    ...(typeof idempotencyKey === "string" ? { idempotencyKey } : {}),
  });
  if (answer.status >= 200 && answer.status < 300) {
    const { structured, text } = tool.present(answer.body, answer.headers.get("Idempotent-Replayed") === "true");
    return { structuredContent: structured, content: [{ type: "text", text }] } satisfies CallToolResult;
  }
  const problem = problemOf(answer);
  if (problem.code === "slot_unavailable") {
    const serviceId = await serviceOf(rest, tool, args);
    return refusal(problem, await nextFreeHint(rest, serviceId, problem, args.startTime, args.providerId));
  }
  return refusal(problem, retryHint(answer));
}

const instructions = (businessName: string) =>
  `Books appointments for ${businessName}. Usual flow: list_services for the serviceId; find_availability for free slots; hold_slot to keep one while you ask for the customer's name and e-mail; book_appointment with the holdId and an idempotencyKey. list_bookings and find_customers look things up; reschedule_booking and cancel_booking change a booking by its id. Times are UTC instants with a trailing Z; pass slot times unchanged. A result with isError is a refusal: read its problem code and detail, fix the arguments or pick another slot, and retry writes with the same idempotencyKey.`;

const anyToolsCall = z.looseObject({ method: z.literal("tools/call") });

/** A fresh protocol server for one request, its tools reaching REST through `c`. */
export function createServer(c: Context<AppEnv>, operations: Map<string, RestOperation>): Server {
  const server = new Server(
    { name: "booking-api", title: "Booking API", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: instructions(c.var.caller.businessName),
      jsonSchemaValidator: noSchemaValidation,
    },
  );
  const rest = restFor(c);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listTools(rest) }));
  // Registered under a schema that takes any tools/call: the SDK's own check of the request
  // (CallToolRequestSchema) then runs in its tools/call wrapper and answers -32602 for bad params,
  // where a failed parse at registration would answer -32603 (an internal error).
  server.setRequestHandler(anyToolsCall, async (message) => {
    const parsed = CallToolRequestSchema.safeParse(message);
    if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, "Invalid tools/call request.");
    const request = parsed.data;
    const tool = tools.find((t) => t.name === request.params.name);
    const operation = tool && operations.get(tool.operationId);
    if (!tool || !operation) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. See tools/list.`);
    }
    return callTool(c, rest, tool, operation, { ...request.params.arguments });
  });
  return server;
}
