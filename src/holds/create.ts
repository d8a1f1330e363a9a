import { eq } from "drizzle-orm";
import { type HoldResult, serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { holds } from "../db/schema";
import type { Caller } from "../env";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/ids";
import { loadBookableService } from "../services/bookable";

/** Live holds one API key may have at once, so nobody can freeze a calendar. */
export const MAX_LIVE_HOLDS_PER_KEY = 50;

/** What a hold is for, and for how long. */
export type HoldRequest = {
  serviceId: string;
  startTime: string;
  endTime: string;
  providerId?: string;
  ttlSeconds: number;
};

/**
 * Who places holds and how many of theirs may be live at once: an API key, or a booking page's
 * visitor (src/public/holds.ts). `placedBy` is what the holds table keeps in `api_key_id`.
 */
export type HoldBound = { placedBy: string; max: number; refusal: string; page?: boolean };

/** The bound of an API key's holds. */
const keyBound = (keyId: string): HoldBound => ({
  placedBy: keyId,
  max: MAX_LIVE_HOLDS_PER_KEY,
  refusal: `This API key has ${MAX_LIVE_HOLDS_PER_KEY} live holds; book or release one first.`,
});

/**
 * Keeps a seat of the business's active service (and, with providers, the person's time) for
 * `ttlSeconds`, under the rules of a booking, for the caller's API key: at most
 * MAX_LIVE_HOLDS_PER_KEY live holds per key (409 `hold_limit_reached` beyond), or as `bound`
 * says. Answers the calendar's result: the hold, or its refusal, which leaves nothing held.
 */
export async function createHold(
  env: Env,
  db: Database,
  { businessId, keyId }: Pick<Caller, "businessId" | "keyId">,
  request: HoldRequest,
  bound: HoldBound = keyBound(keyId),
): Promise<HoldResult> {
  const now = Date.now();
  const { service, providers, resources } = await loadBookableService(db, businessId, request.serviceId, {
    providerId: request.providerId,
  });
  const id = newId("hold", now);
  // The placer's place is taken before the calendar is asked, counted and inserted in one
  // statement, so a burst cannot pass the limit; it is given back if the calendar refuses.
  const expiresAt = new Date(now + request.ttlSeconds * 1000).toISOString();
  const { meta } = await env.DB.prepare(
    `INSERT INTO holds (id, business_id, service_id, api_key_id, expires_at, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6
     WHERE (SELECT count(*) FROM holds WHERE api_key_id = ?4 AND expires_at > ?6 AND ended_at IS NULL) < ?7`,
  )
    .bind(id, businessId, service.id, bound.placedBy, expiresAt, new Date(now).toISOString(), bound.max)
    .run();
  if (meta.changes === 0) throw new ApiError("hold_limit_reached", bound.refusal);
  const giveBack = () => db.delete(holds).where(eq(holds.id, id));
  const result = await serviceCalendarOf(env, businessId, service.id)
    .createHold({
      holdId: id,
      service,
      startTime: request.startTime,
      endTime: request.endTime,
      ttlMs: request.ttlSeconds * 1000,
      providers,
      resources,
      providerId: request.providerId ?? null,
      ...(bound.page ? { page: true } : {}),
    })
    .catch(async (error: unknown) => {
      // Unanswered (a reset): a hold the calendar may have placed still expires on its own.
      await giveBack().catch(() => {});
      throw error;
    });
  if (!result.ok) {
    await giveBack();
    return result;
  }
  const { hold } = result;
  await db.update(holds).set({ expiresAt: hold.expiresAt, createdAt: hold.createdAt }).where(eq(holds.id, id));
  return result;
}
