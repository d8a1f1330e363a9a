/**
 * The params of each method this server answers, checked before the protocol library sees the
 * message. The library parses a handler's request itself and answers a failure as -32603
 * (internal error) with the validator's issue list as the message (`tools/call` as -32602, with
 * the same list), and params that are not an object as -32700 (parse error). A client that sent
 * bad params gets -32602 (invalid params) with one line naming the method and the field instead.
 */
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ProgressNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

type Schema = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } } };
type Issue = { path: PropertyKey[]; message: string };

/** The requests the server handles (src/mcp/server.ts and the library's own), by method. */
const requests: Record<string, Schema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** The notifications the library handles; others are accepted and ignored. */
const notifications: Record<string, Schema> = {
  "notifications/initialized": InitializedNotificationSchema,
  "notifications/cancelled": CancelledNotificationSchema,
  "notifications/progress": ProgressNotificationSchema,
};

/** A JSON-RPC error response, and the HTTP status it goes with. */
export type ParamsRefusal = {
  status: 200 | 400;
  body: { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string } };
};

const isRequestId = (id: unknown) => typeof id === "string" || Number.isSafeInteger(id);

/**
 * The answer to a request or notification of a known method whose params do not fit it: a
 * request gets -32602 with its id (HTTP 200, like any JSON-RPC error); a notification, which has
 * no id to answer, a 400 carrying the same error. Undefined for anything else, which the library
 * answers (a message that is not JSON-RPC, an unknown method, params that fit).
 */
export function paramsRefusal(message: Record<string, unknown>): ParamsRefusal | undefined {
  const { method } = message;
  if (message.jsonrpc !== "2.0" || typeof method !== "string") return undefined;
  const isRequest = Object.hasOwn(message, "id");
  if (isRequest && !isRequestId(message.id)) return undefined;
  const schemas = isRequest ? requests : notifications;
  const schema = Object.hasOwn(schemas, method) ? schemas[method] : undefined;
  const parsed = schema?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const [issue] = parsed.error.issues;
  const where = issue?.path.length ? issue.path.map(String).join(".") : "params";
  const detail = issue ? `${where}: ${issue.message}` : where;
  const error = { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${detail.slice(0, 120)}.` };
  return isRequest
    ? { status: 200, body: { jsonrpc: "2.0", id: message.id as string | number, error } }
    : { status: 400, body: { jsonrpc: "2.0", id: null, error } };
}
