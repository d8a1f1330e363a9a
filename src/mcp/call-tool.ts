/**
 * A tool call: its arguments checked with the REST route's own schemas, the REST request sent
 * in-process, and the answer turned into a tool result (or a refusal).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError, type FieldError } from "../lib/api-error";
import { problemResponse } from "../lib/problem-response";
import { fieldErrors } from "../lib/validation";
import type { z } from "../lib/zod";
import { nextFreeHint, type Problem, problemOf, refusal, retryHint, serviceOf } from "./refusal";
import type { Rest } from "./rest";
import { idempotencyArgument, type RestOperation } from "./schemas";
import type { Tool } from "./tools";

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

/** Calls the REST operation a tool mirrors with the tool's arguments, and answers the tool result. */
export async function callTool(c: Context<AppEnv>, rest: Rest, tool: Tool, operation: RestOperation, args: Args) {
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
