/**
 * The directory's reads: which shard a key's business lives on, and which business a booking
 * page's slug is. A key never moves to another business, so its shard is remembered per isolate
 * (at most 1,000 keys) and read once per key; whether the key is still live is checked on the
 * shard, in the request's own batch (src/middleware/key-check.ts), so revocation stays immediate.
 * A business that moved left a forwarding row on its old shard: the key check that finds it
 * forgets the key's shard (`forgetKeyShard`), and the directory is read again (src/middleware/auth.ts).
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

/** Slugs' shards this isolate looked up lately (none found: null), with when each entry ends. */
const shardBySlug = new Map<string, { shard: number | null; until: number }>();
const SLUG_TTL_MS = 60_000;

/**
 * The shard of the business whose booking page is at `slug` (null for none), read from the
 * directory at most once a minute per slug and isolate: pages are read far more often than slugs
 * change. A slug that moved to a business of another shard within that minute answers 404 there
 * until the entry ends.
 */
export async function shardOfSlug(env: Env, slug: string, now = Date.now()): Promise<number | null> {
  const known = shardBySlug.get(slug);
  if (known && known.until > now) return known.shard;
  const row = await directoryOf(env)
    .prepare("SELECT shard FROM businesses WHERE slug = ? LIMIT 1")
    .bind(slug)
    .first<{ shard: number }>();
  if (shardBySlug.size >= MAX_REMEMBERED) shardBySlug.delete(shardBySlug.keys().next().value as string);
  shardBySlug.set(slug, { shard: row?.shard ?? null, until: now + SLUG_TTL_MS });
  return row?.shard ?? null;
}

/** Forgets what this isolate knows of a slug (its business changed it here). */
export const forgetSlug = (slug: string): void => void shardBySlug.delete(slug);
