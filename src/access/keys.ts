/**
 * A business's API keys through the API: a page of them, a new one under the bound, a revocation.
 * A key's row lives on the business's shard (the key check reads it there) and in the directory
 * (which names the shard of a key it has not seen): a new key is written to the shard first and a
 * revoked one revoked there first, so the directory never lets in a key its shard does not hold.
 * Only the SHA-256 of a key is stored; the key itself is answered once, at creation.
 */

import { and, count, eq, isNull, lt, sql } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import { apiKeyRecord } from "../business/new-business";
import { createDb, type Database } from "../db/client";
import { apiKeys } from "../db/schema";
import type { Caller } from "../env";
import { ApiError } from "../lib/api-error";
import { generateApiKey } from "../lib/crypto";
import { newId } from "../lib/ids";
import { insertWhere, loadOwned } from "../lib/rows";
import { newestFirst } from "../lists/newest-first";
import type { PageRequest } from "../lists/pagination";
import { directoryOf } from "../shards/shards";
import { grants, listed, type Scope, scopes } from "../types/scopes";
import { actorOf } from "./actor";

/**
 * The 403 of a key that lacks `scope`. A read whose key check is still owed makes it first, so a
 * revoked key hears 401, as everywhere, not which scopes it had.
 */
export const insufficientScope = (scope: Scope) =>
  new ApiError("insufficient_scope", `This API key lacks the scope ${scope}.`, {
    extensions: { scope },
    headers: { "WWW-Authenticate": `Bearer realm="api", error="insufficient_scope", scope="${scope}"` },
  });

/** Live (not revoked) keys one business may have. */
export const MAX_API_KEYS = 50;

type KeyRow = typeof apiKeys.$inferSelect;

/** The public shape of a key: never its hash. A key from before scopes lists every scope. */
export const toApiKey = (row: KeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.keyPrefix,
  mode: row.keyPrefix.startsWith("bk_test_") ? ("test" as const) : ("live" as const),
  scopes: listed(row.scopes),
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
});

/** One page of the business's keys, live and revoked, newest first, and how many there are. */
export async function keyPage(db: Database, businessId: string, page: PageRequest) {
  const { rows, total } = await newestFirst(db, apiKeys, eq(apiKeys.businessId, businessId), page);
  return { items: rows.map(toApiKey), total };
}

/** The business's key with this id (live or revoked), or a 404. */
export const keyOf = async (db: Database, businessId: string, id: string) =>
  toApiKey(await loadOwned(db, apiKeys, "API key", businessId, id));

/**
 * `INSERT … SELECT … WHERE (live keys of the business) < MAX`: the count and the insert are one
 * statement, so a burst of creations cannot pass the bound together.
 */
function insertKeyQuery(db: Database, row: KeyRow) {
  const live = db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.businessId, row.businessId), isNull(apiKeys.revokedAt)));
  return insertWhere(db, apiKeys, row, lt(sql`(${live})`, MAX_API_KEYS));
}

/**
 * Makes a key for the caller's business with `scopes`, none of which the caller's own key may
 * lack (403 `insufficient_scope` naming the first it lacks): a key never grants more than its
 * maker holds. Answers the key itself, this once.
 */
export async function createKey(
  env: Env,
  db: Database,
  caller: Caller,
  input: { name: string; scopes: Scope[]; mode?: "live" | "test" },
) {
  const missing = input.scopes.find((scope) => !grants(caller.scopes, scope));
  if (missing) throw insufficientScope(missing);
  const plaintext = generateApiKey(input.mode ?? "live");
  const now = new Date();
  const record = await apiKeyRecord(newId("apiKey", now.getTime()), caller.businessId, plaintext, now);
  // Stored in the order of `scopes`, so a listing reads the same whatever order was sent.
  const row: KeyRow = { ...record, name: input.name, scopes: scopes.filter((s) => input.scopes.includes(s)) };
  const audit = { businessId: caller.businessId, actor: actorOf(caller), resource: { type: "apiKey", id: row.id } };
  const [written] = await db.batch([
    insertKeyQuery(db, row),
    recordIfChanged(db, { ...audit, action: "apiKey.created", fields: ["name", "scopes"] }),
  ]);
  if (written.meta.changes === 0) {
    throw new ApiError(
      "api_key_limit",
      `A business can have at most ${MAX_API_KEYS} live API keys. Revoke one it no longer needs (DELETE /api-keys/{id}), then create the new one.`,
    );
  }
  await createDb(directoryOf(env)).insert(apiKeys).values(row).onConflictDoNothing();
  return { ...toApiKey(row), key: plaintext };
}

/** Revokes the business's key now (its next request is a 401); revoking a revoked key again changes nothing. */
export async function revokeKey(env: Env, db: Database, caller: Caller, id: string): Promise<void> {
  const { businessId } = caller;
  const row = await loadOwned(db, apiKeys, "API key", businessId, id);
  if (row.revokedAt !== null) return;
  const now = new Date().toISOString();
  const live = and(eq(apiKeys.id, row.id), isNull(apiKeys.revokedAt));
  await db.batch([
    db.update(apiKeys).set({ revokedAt: now }).where(live),
    recordIfChanged(db, {
      businessId,
      actor: actorOf(caller),
      action: "apiKey.revoked",
      resource: { type: "apiKey", id: row.id },
      fields: ["revokedAt"],
    }),
  ]);
  await createDb(directoryOf(env)).update(apiKeys).set({ revokedAt: now }).where(live);
}
