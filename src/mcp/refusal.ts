/**
 * A refused tool call: the REST answer's problem details as an `isError` result, with a hint for
 * the model (the next free slots after a taken one, when to retry).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FieldError } from "../lib/api-error";
import type { Rest, RestAnswer } from "./rest";
import { bookableSlots, SLOTS_SUGGESTED, type Tool } from "./tools";

/** The problem details of a refused REST request (RFC 9457), as the tool result carries them. */
export type Problem = {
  code?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: FieldError[];
  reason?: string;
  [member: string]: unknown;
};

/** A refusal: isError, a sentence for the model, and the problem details (plus any hint data) as JSON. */
export function refusal(problem: Problem, hint: Hint = { text: "" }): CallToolResult {
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
export type Hint = { text: string; data?: Record<string, unknown> };

/** The problem of a REST answer that is not a success (a bare status if its body is no problem). */
export function problemOf(answer: RestAnswer): Problem {
  const body = answer.body;
  if (body && typeof body === "object" && "code" in body) return body as Problem;
  return {
    status: answer.status,
    code: "unexpected_status",
    title: "Unexpected answer",
    detail: `HTTP ${answer.status}.`,
  };
}

/** When to try again, from the answer's `Retry-After`. */
export const retryHint = (answer: RestAnswer): Hint => {
  const after = answer.headers.get("Retry-After");
  return { text: after ? `\nRetry after ${after} s.` : "" };
};

/** The next free slots of a service after a refused time, as a sentence and as data. */
export async function nextFreeHint(
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
export async function serviceOf(rest: Rest, tool: Tool, args: Record<string, unknown>): Promise<unknown> {
  if (args.serviceId !== undefined) return args.serviceId;
  if (tool.idArgument?.name !== "bookingId" || typeof args.bookingId !== "string") return undefined;
  const answer = await rest({ method: "GET", path: `/bookings/${encodeURIComponent(args.bookingId)}` });
  return answer.status === 200 ? (answer.body as { serviceId?: unknown }).serviceId : undefined;
}
