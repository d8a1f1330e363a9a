/**
 * A read checks its API key in its own D1 round trip. A key never moves to another business;
 * only revocation changes, and revocation is immediate. So the isolate remembers callers by key
 * hash (at most 1,000), and a read from a remembered key is answered only once its key was found
 * live on its business's shard during that same request: as the first statement of the handler's batch
 * (`readWithKey`), or, for a handler that did not fold it in, in one lookup after the handler and
 * before the answer leaves. Writes always look their key up first.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { forgetSessionBusiness } from "../access/session-business";
import type { Database } from "../db/client";
import { type BoundRead, bind, preparedOnce, type ReadBatch, readBatch } from "../db/prepared";
import { apiKeys, businesses } from "../db/schema";
import type { AppEnv, Caller, KeyCheck } from "../env";
import { ApiError } from "../lib/api-error";
import { movingProblem } from "../lib/transient";
import { forgetKeyShard } from "../shards/directory";

const challenge = 'Bearer realm="api"';

/**
 * The one 401 for a request without a usable key: missing, malformed, unknown and revoked keys
 * all get the same detail, so the answer does not say which.
 */
export function unauthorized(keySent: boolean, detail = "The API key is invalid or revoked."): ApiError {
  return new ApiError("unauthorized", detail, {
    headers: { "WWW-Authenticate": keySent ? `${challenge}, error="invalid_token"` : challenge },
  });
}

const MAX_REMEMBERED = 1_000;
const remembered = new Map<string, Caller>();

/** The caller this isolate last found for a key hash, if any (not proof that the key is live). */
export const rememberedCaller = (keyHash: string): Caller | undefined => remembered.get(keyHash);

/** Remembers a live key's caller; the oldest entry goes once the map is full. */
export function remember(keyHash: string, caller: Caller): void {
  remembered.delete(keyHash);
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  remembered.set(keyHash, caller);
}

/**
 * Forgets every remembered key of a business whose settings the callers carry changed (its
 * name, zone, manage-link key), and its fields remembered for signed-in reads: their next request
 * looks them up again. Other isolates catch up at their
 * next lookup of the key (every write, and every read's own key check).
 */
export function forgetCallersOf(businessId: string): void {
  forgetSessionBusiness(businessId);
  for (const [keyHash, caller] of remembered) if (caller.businessId === businessId) remembered.delete(keyHash);
}

/** Forgets a key found revoked (or gone). */
export const forget = (keyHash: string): void => void remembered.delete(keyHash);

/**
 * The live key with this hash and its business, prepared once per isolate. Its columns have
 * distinct names (`id`, `business_id`, `scopes`, `name`, `link_key_version`, `shard`): a D1 batch answers rows keyed by
 * column name. It runs on the business's shard (its copy of the key and the business is the one
 * revocation and settings change), so a read folds it into the batch of its own queries.
 */
export const keyLookup = (db: Database) =>
  preparedOnce(db, "api-key", (db) =>
    db
      .select({
        keyId: apiKeys.id,
        businessId: apiKeys.businessId,
        scopes: apiKeys.scopes,
        businessName: businesses.name,
        linkKeyVersion: businesses.linkKeyVersion,
        shard: businesses.shard,
        relocationState: businesses.relocationState,
      })
      .from(apiKeys)
      .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder("keyHash")), isNull(apiKeys.revokedAt)))
      .limit(1)
      .prepare(),
  );

/**
 * Runs a handler's reads in one D1 batch, with the caller's key check as its first statement
 * when the request still owes one; a 401 when the key is no longer live.
 */
export async function readWithKey<const T extends readonly BoundRead<unknown>[]>(c: Context<AppEnv>, reads: T) {
  const check = c.var.keyCheck;
  const count = (rows: number) => c.set("rowsRead", (c.var.rowsRead ?? 0) + rows);
  if (!check?.owed) return readBatch(c.env.DB, reads, count);
  const [live, ...rest] = await readBatch(
    c.env.DB,
    [bind(keyLookup(c.var.db), { keyHash: check.keyHash }), ...reads],
    count,
  );
  settle(check, live[0]);
  return rest as unknown as Awaited<ReturnType<typeof readBatch<T>>>;
}

/** This request's reader of prepared reads: `readWithKey`, for the domain module that builds a list's batch. */
export const batchReader =
  (c: Context<AppEnv>): ReadBatch =>
  (reads) =>
    readWithKey(c, reads);

/** A key's row as the lookup reads it on a shard: the caller, and whether its business is moving. */
export type KeyRow = Caller & { relocationState: "leaving" | "arriving" | null };

/**
 * Records the outcome of a key check: a live key is remembered afresh, a dead one forgotten
 * (401), and one whose business has moved off this shard, or has not yet arrived on it, forgotten
 * with its shard (a 503: the retry reads the directory).
 */
export function settle(check: KeyCheck, live: KeyRow | undefined): void {
  check.owed = false;
  if (!live) {
    forget(check.keyHash);
    throw unauthorized(true);
  }
  if (!isHome(live, check.shard)) {
    forget(check.keyHash);
    forgetKeyShard(check.keyHash);
    throw movingProblem("The business is moving to another database.");
  }
  remember(check.keyHash, live);
}

/** Whether a key's row read on `shard` is its business's home: not a moved business's forwarding row, not one still arriving. */
export const isHome = (row: KeyRow, shard: number): boolean =>
  row.shard === shard && row.relocationState !== "arriving";

/**
 * Requests this isolate sends to itself on behalf of a caller whose key was checked moments ago
 * (the MCP server's tool calls): their key is not looked up a second time. Only a `Request`
 * object made in-process can be in it; nothing a client sends can.
 */
const vouched = new WeakMap<Request, Caller>();

/** Marks an in-process request as sent for `caller` (see `vouched`). */
export const vouchFor = (request: Request, caller: Caller): void => void vouched.set(request, caller);

/**
 * Reads the vouch of the request as it arrived, before any middleware rebuilds it (the body
 * limit's counted copy is a new `Request`), into `c.var.vouched`, where the key check looks.
 */
export const readVouch = createMiddleware<AppEnv>(async (c, next) => {
  const caller = vouched.get(c.req.raw);
  if (caller) c.set("vouched", caller);
  await next();
});
