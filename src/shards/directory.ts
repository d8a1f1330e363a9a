/**
 * The directory's reads: which shard a key's business lives on, and which business a booking
 * page's slug is. A key never moves to another business, so its shard is remembered per isolate
 * (at most 1,000 keys) and read once per key; whether the key is still live is checked on the
 * shard, in the request's own batch (src/middleware/key-check.ts), so revocation stays immediate.
 * A business that moved is found again at its key's next miss (`forgetKeyShard`).
 */
import { directoryOf } from "./shards";

const MAX_REMEMBERED = 1_000;
const shardByKey = new Map<string, number>();

/** The shard of the business of a live key (by its hash), or undefined for no such key. */
export async function shardOfKey(env: Env, keyHash: string): Promise<number | undefined> {
  const known = shardByKey.get(keyHash);
  if (known !== undefined) return known;
  const row = await directoryOf(env)
    .prepare(
      `SELECT b.shard AS shard FROM api_keys k JOIN businesses b ON b.id = k.business_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL LIMIT 1`,
    )
    .bind(keyHash)
    .first<{ shard: number }>();
  if (!row) return undefined;
  if (shardByKey.size >= MAX_REMEMBERED) shardByKey.delete(shardByKey.keys().next().value as string);
  shardByKey.set(keyHash, row.shard);
  return row.shard;
}

/** Forgets a key's shard (the key was not found there): its next request reads the directory. */
export const forgetKeyShard = (keyHash: string): void => void shardByKey.delete(keyHash);

/** The business whose booking page is at `slug`, with its shard, or undefined. */
export async function businessOfSlug(env: Env, slug: string): Promise<{ id: string; shard: number } | undefined> {
  const row = await directoryOf(env)
    .prepare("SELECT id, shard FROM businesses WHERE slug = ? LIMIT 1")
    .bind(slug)
    .first<{ id: string; shard: number }>();
  return row ?? undefined;
}

/** The shard of a business, or undefined when the directory has no such business. */
export async function shardOfBusiness(env: Env, businessId: string): Promise<number | undefined> {
  const row = await directoryOf(env)
    .prepare("SELECT shard FROM businesses WHERE id = ?")
    .bind(businessId)
    .first<{ shard: number }>();
  return row?.shard;
}
