/**
 * What a signed-in request needs of its business beyond the session: its name, zone, language
 * and manage-link key version, read on the business's shard. A read (GET, HEAD) takes them as
 * this isolate read them in the last 30 seconds; a change always reads them afresh, so a booking
 * made never carries a manage link of a key version that just ended. Whether the session is live
 * is never remembered: the directory is read on every request (src/access/sessions.ts).
 */
import type { Locale } from "../types/business";

/** The business's fields a signed-in request carries. */
export type SessionBusiness = { name: string; timezone: string; locale: Locale; link_key_version: number };

/** How long a read may take the fields this isolate read before: a rename or a new zone shows within it everywhere. */
export const BUSINESS_FRESH_MS = 30_000;
const MAX_REMEMBERED = 1_000;
const remembered = new Map<string, { at: number; business: SessionBusiness }>();

/**
 * The business's fields for a signed-in request on its shard (`db` is the request's shard), or
 * undefined when the business is not there (the session then ends as if it were over).
 */
export async function sessionBusiness(
  db: D1Database,
  businessId: string,
  method: string,
  now = Date.now(),
): Promise<SessionBusiness | undefined> {
  const read = method === "GET" || method === "HEAD";
  const known = remembered.get(businessId);
  if (read && known && now - known.at < BUSINESS_FRESH_MS) return known.business;
  const business = await db
    .prepare("SELECT name, timezone, locale, link_key_version FROM businesses WHERE id = ?")
    .bind(businessId)
    .first<SessionBusiness>();
  remembered.delete(businessId);
  if (!business) return undefined;
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  remembered.set(businessId, { at: now, business });
  return business;
}

/** Forgets a business whose fields changed: this isolate's next request reads them afresh. */
export const forgetSessionBusiness = (businessId: string): void => void remembered.delete(businessId);
