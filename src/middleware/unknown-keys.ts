/**
 * Unknown API keys: two isolate-level guards, both bounded.
 * - A negative cache of key hashes that matched no live key (at most 1,000, each for 60 s): a
 *   key is random, so one that matched nothing never starts matching, and repeating it costs no
 *   D1 lookup; a revoked key stays refused, which keeps revocation immediate.
 * - Per client address, lookups that found nothing count against the read budget (the
 *   `READ_LIMITER` binding, key `unknown-key:<address>`); once it is spent, keys from that
 *   address that match nothing get 429 instead of 401 for the rest of the period (at most 1,000
 *   addresses kept). Only what the sender controls is throttled: every key is still looked up,
 *   so a valid key is never refused because someone else behind its address (an office, a
 *   carrier's NAT) sent garbage.
 */

const MAX_ENTRIES = 1_000;
const NEGATIVE_TTL_MS = 60_000;

/** A bounded map whose entries expire; the oldest is dropped once it is full. */
class ExpiringSet {
  private readonly until = new Map<string, number>();

  has(key: string, now: number): boolean {
    const at = this.until.get(key);
    if (at === undefined) return false;
    if (at > now) return true;
    this.until.delete(key);
    return false;
  }

  add(key: string, until: number): void {
    this.until.delete(key);
    if (this.until.size >= MAX_ENTRIES) this.until.delete(this.until.keys().next().value as string);
    this.until.set(key, until);
  }
}

const unknownHashes = new ExpiringSet();
const throttledClients = new ExpiringSet();

/** Whether this key hash is known to match no live key. */
export const isKnownUnknown = (keyHash: string, now = Date.now()) => unknownHashes.has(keyHash, now);

/**
 * Records a lookup that found nothing: the hash is cached, and the client's budget is charged
 * (unless it is spent already); answers false when that budget is spent (the caller answers 429).
 */
export async function recordUnknown(
  keyHash: string,
  client: string,
  limiter: RateLimit,
  periodSeconds: number,
  now = Date.now(),
): Promise<boolean> {
  unknownHashes.add(keyHash, now + NEGATIVE_TTL_MS);
  if (throttledClients.has(client, now)) return false;
  const { success } = await limiter.limit({ key: `unknown-key:${client}` });
  if (!success) throttledClients.add(client, now + periodSeconds * 1000);
  return success;
}
