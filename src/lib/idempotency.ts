/**
 * `Idempotency-Key` for unsafe requests (IETF draft), scoped to the business and kept 24 hours.
 * D1 is the coordinator because keys span services: the first request locks the key with an
 * atomic upsert; later ones replay its stored response, or are told it is in flight or reused.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { idempotencyKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "./api-error";
import { sha256Hex } from "./crypto";

/**
 * How long an `Idempotency-Key` is kept: 24 hours, in D1 (which coordinates keys across a
 * business's services) and in each calendar's own record of the keys it served alike, so a key
 * reused after this is a new request in both places.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

const RETENTION_MS = IDEMPOTENCY_RETENTION_MS;
/** A key whose request died is taken over after this long. */
const LEASE_MS = 60 * 1000;

export type IdempotencyLock = { key: string; requestHash: string };

/** Reads and checks the header; `undefined` when the client sent none. */
function idempotencyKeyOf(c: Context<AppEnv>): string | undefined {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined) return undefined;
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError("validation_failed", "The Idempotency-Key header is invalid.", {
      errors: [{ path: "Idempotency-Key", message: "Use 1 to 255 visible ASCII characters." }],
    });
  }
  return key;
}

/** Fingerprint of a request: method, path and the canonical JSON of its validated body. */
async function requestFingerprint(c: Pick<Context<AppEnv>, "req">, body: unknown): Promise<string> {
  return sha256Hex(`${c.req.method} ${new URL(c.req.url).pathname}\n${canonicalJson(body)}`);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * A handler's answer: the body, where the created resource lives, and whether it is a replay
 * the handler found on its own (the calendar keeps its own record of keys it has served).
 */
export type Outcome<T> = { body: T; location?: string; replayed?: boolean; headers?: Record<string, string> };

/**
 * Runs `handler` at most once per key and returns its outcome, or the stored one on a replay
 * (`replayed`). Without a key it simply runs. Only successes are stored; after an error the
 * key is released so the client can retry with it.
 */
const idempotent = <T>(
  c: Context<AppEnv>,
  body: unknown,
  status: 200 | 201,
  handler: (lock: IdempotencyLock | undefined) => Promise<Outcome<T>>,
): Promise<Outcome<T>> => idempotentUnder(c, idempotencyKeyOf(c), body, status, handler);

/**
 * `idempotent` under a key the caller brings another way than the header: the office's phone-in
 * sends one in its form, so a second click on "Book" gets the first click's booking.
 */
export async function idempotentUnder<T>(
  c: Pick<Context<AppEnv>, "req" | "var">,
  key: string | undefined,
  body: unknown,
  status: 200 | 201,
  handler: (lock: IdempotencyLock | undefined) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  if (key === undefined) return { replayed: false, ...(await handler(undefined)) };

  const businessId = c.var.caller.businessId;
  const requestHash = await requestFingerprint(c, body);
  const now = Date.now();
  const claimed = await c.var.db
    .insert(idempotencyKeys)
    .values({
      businessId,
      key,
      requestHash,
      lockedUntil: new Date(now + LEASE_MS).toISOString(),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + RETENTION_MS).toISOString(),
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.businessId, idempotencyKeys.key],
      set: {
        requestHash: sql`excluded.request_hash`,
        responseStatus: null,
        responseBody: null,
        responseLocation: null,
        responseHeaders: null,
        lockedUntil: sql`excluded.locked_until`,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
      },
      // Take the key over only when it expired, or when an identical request died mid-flight.
      setWhere: sql`${idempotencyKeys.expiresAt} < excluded.created_at OR (${idempotencyKeys.responseStatus} IS NULL
        AND ${idempotencyKeys.lockedUntil} < excluded.created_at AND ${idempotencyKeys.requestHash} = excluded.request_hash)`,
    })
    .returning({ key: idempotencyKeys.key });

  const where = and(eq(idempotencyKeys.businessId, businessId), eq(idempotencyKeys.key, key));
  if (claimed.length === 0) {
    const [prior] = await c.var.db.select().from(idempotencyKeys).where(where).limit(1);
    if (!prior) throw new ApiError("idempotency_key_in_flight", "Retry: the key was released just now.");
    if (prior.requestHash !== requestHash) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was used for a different request.");
    }
    if (prior.responseStatus === null) {
      throw new ApiError("idempotency_key_in_flight", "A request with this Idempotency-Key is still in progress.", {
        headers: { "Retry-After": "1" },
      });
    }
    return {
      body: JSON.parse(prior.responseBody ?? "null") as T,
      location: prior.responseLocation ?? undefined,
      headers: prior.responseHeaders ?? undefined,
      replayed: true,
    };
  }

  let outcome: Outcome<T>;
  try {
    outcome = await handler({ key, requestHash });
  } catch (error) {
    await c.var.db.delete(idempotencyKeys).where(where);
    throw error;
  }
  // The work is committed: failing to store its answer must not turn it into an error. The lock
  // then lapses after its lease, and a retry reaches the calendar, which answers it again.
  try {
    await c.var.db
      .update(idempotencyKeys)
      .set({
        responseStatus: status,
        responseBody: JSON.stringify(outcome.body),
        responseLocation: outcome.location ?? null,
        responseHeaders: outcome.headers ?? null,
      })
      .where(where);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        msg: "storing an idempotent response failed",
        requestId: c.var.requestId,
        error: String(error),
      }),
    );
  }
  return { replayed: false, ...outcome };
}

/** Sets `Location`, the outcome's other headers and `Idempotent-Replayed`: a replay carries what the first answer did. */
function outcomeHeaders(c: Context<AppEnv>, outcome: Outcome<unknown>): void {
  if (outcome.location) c.header("Location", outcome.location);
  for (const [name, value] of Object.entries(outcome.headers ?? {})) c.header(name, value);
  if (outcome.replayed) c.header("Idempotent-Replayed", "true");
}

/**
 * Answers an unsafe request at most once per key (`idempotent`): the outcome's body at `status`,
 * with its headers (`Location`, `Idempotent-Replayed`, …), whether it ran now or is a replay.
 */
export async function answerOnce<T, S extends 200 | 201>(
  c: Context<AppEnv>,
  body: unknown,
  status: S,
  handler: (lock: IdempotencyLock | undefined) => Promise<Outcome<T>>,
) {
  const outcome = await idempotent(c, body, status, handler);
  outcomeHeaders(c, outcome);
  return c.json(outcome.body, status);
}
