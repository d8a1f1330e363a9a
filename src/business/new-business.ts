/**
 * Account and key records, built in one place for the Worker, the tests and the CLI.
 * Only the SHA-256 of a key is ever stored; the plaintext is returned once to be shown.
 * Relative imports carry `.ts` so Node scripts (scripts/) can import this file directly.
 */

import { generateApiKey, sha256Hex } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";
import { type KeyScopes, scopes } from "../types/scopes.ts";

export type BusinessRecord = { id: string; name: string; createdAt: string; updatedAt: string; shard?: number };
export type ApiKeyRecord = {
  id: string;
  businessId: string;
  keyHash: string;
  keyPrefix: string;
  /** What the key is for (null: unnamed). */
  name: string | null;
  /** What the key may do (src/types/scopes.ts); null is every scope, as keys from before scopes. */
  scopes: KeyScopes;
  createdAt: string;
  revokedAt: string | null;
};

/** The stored record of a given plaintext key (a generated one, or the fixed local demo key). */
export async function apiKeyRecord(
  id: string,
  businessId: string,
  plaintext: string,
  now = new Date(),
  grant: { name?: string | null; scopes?: KeyScopes } = {},
): Promise<ApiKeyRecord> {
  return {
    id,
    businessId,
    keyHash: await sha256Hex(plaintext),
    keyPrefix: plaintext.slice(0, 12),
    name: grant.name ?? null,
    scopes: grant.scopes ?? null,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
}

/** A new API key for a business (every scope unless `grant` names some): the row to store and the plaintext to show once. */
export async function newApiKey(
  businessId: string,
  mode: "live" | "test" = "live",
  now = new Date(),
  grant: { name?: string | null; scopes?: KeyScopes } = {},
): Promise<{ record: ApiKeyRecord; plaintext: string }> {
  const plaintext = generateApiKey(mode);
  const id = newId("apiKey", now.getTime());
  return { plaintext, record: await apiKeyRecord(id, businessId, plaintext, now, grant) };
}

/** A new business with its first API key. */
export async function newBusiness(name: string, mode: "live" | "test" = "live", now = new Date()) {
  const business: BusinessRecord = {
    id: newId("business", now.getTime()),
    name,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  // The first key lists every scope: the one key a business starts with can do everything.
  const key = await newApiKey(business.id, mode, now, { name: "First key", scopes: [...scopes] });
  return { business, apiKey: key.record, plaintextKey: key.plaintext };
}

/**
 * The shard a new account goes to: the one holding the fewest businesses now (the lowest number
 * on a tie), given the directory's count per shard (`SELECT shard, count(*) FROM businesses GROUP
 * BY shard`; a shard it does not name has none). Placement only balances: two accounts made at
 * the same moment may land on the same shard, and nothing depends on where one lands.
 */
export function leastFullShard(counts: ReadonlyMap<number, number>, shards: number): number {
  let best = 0;
  for (let shard = 1; shard < shards; shard++) {
    if ((counts.get(shard) ?? 0) < (counts.get(best) ?? 0)) best = shard;
  }
  return best;
}
