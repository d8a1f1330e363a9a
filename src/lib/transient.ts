/**
 * Failures of the platform that a retry a moment later is expected to get past: an overloaded
 * or restarting D1 database or Durable Object. They are answered 503 with `Retry-After`, not
 * 500, so clients (and their Idempotency-Key retries) know to try again.
 */
import { ApiError } from "./api-error";

/** Seconds a client should wait before retrying an `unavailable` answer. */
export const RETRY_AFTER_SECONDS = 1;

/** Messages D1 and Durable Objects use for overload and resets (Cloudflare's documented errors). */
const transientMessages = [
  /\boverloaded\b/i,
  /temporarily unavailable/i,
  /transient issue/i,
  /Network connection lost/i,
  /caused object to be reset/i,
  /reset because its code was updated/i,
  /storage operation exceeded timeout/i,
  /Too many requests queued/i,
];

type PlatformError = Error & { retryable?: unknown; overloaded?: unknown; durableObjectReset?: unknown };

/**
 * Whether `err`, or an error it wraps (`cause`), is a platform overload or reset: flagged
 * `retryable`, `overloaded` or `durableObjectReset` by the runtime, or a D1 error with one of
 * its overload messages. A wrapper's own message is not read (Drizzle's embeds the query's
 * parameters, which are client input).
 */
export function isTransientFailure(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const e = current as PlatformError;
    if (e.retryable === true || e.overloaded === true || e.durableObjectReset === true) return true;
    const wraps = e.cause instanceof Error;
    if (!wraps && transientMessages.some((pattern) => pattern.test(e.message))) return true;
    current = e.cause;
  }
  return false;
}

/*
 * A business in the middle of a move between databases (src/relocations): a held calendar object's
 * refusal (RPC keeps only an error's message, so its start says what it is) and the 503 the Worker
 * answers for it and for a held write.
 */

/** The start of every refusal of a held object. */
const MOVING = "Tenant moving:";

/** How long a client waits before retrying a request a move held. */
export const MOVE_RETRY_SECONDS = 2;

/** The error a held object throws for a call or a D1 statement it does not run. */
export const movingError = (what: string): Error =>
  new Error(`${MOVING} ${what} waits until the business has moved to its new database.`);

/** Whether `err` (or what it wraps) is a held object's refusal. */
export function isMoving(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message.startsWith(MOVING)) return true;
    current = current.cause;
  }
  return false;
}

/** The 503 of a request a move holds (docs/operations.md, "Relocating a business"). */
export const movingProblem = (detail = "The business is moving to another database; changes wait until it has.") =>
  new ApiError("unavailable", `${detail} Retry in a few seconds.`, {
    headers: { "Retry-After": String(MOVE_RETRY_SECONDS) },
  });
