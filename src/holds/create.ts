import { and, count, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { actorOf } from "../access/actor";
import { customerActor } from "../audit/booking-events";
import { creationAuditId, fieldsOf, recordIfChanged } from "../audit/record";
import { type HoldResult, serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { auditEvents, holds } from "../db/schema";
import type { Caller } from "../env";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import { insertWhere } from "../lib/rows";
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
 * visitor (src/booking-page/holds.ts). `placedBy` is what the holds table keeps in `api_key_id`.
 */
export type HoldBound = { placedBy: string; max: number; refusal: string; page?: boolean };

/** The bound of an API key's holds. */
const keyBound = (keyId: string): HoldBound => ({
  placedBy: keyId,
  max: MAX_LIVE_HOLDS_PER_KEY,
  refusal: `This API key has ${MAX_LIVE_HOLDS_PER_KEY} live holds; book or release one first.`,
});

/** The live holds of one placer at `at`: counted in the statement that adds one. */
const livePlacedBy = (db: Database, placedBy: string, at: string) =>
  db
    .select({ n: count() })
    .from(holds)
    .where(and(eq(holds.apiKeyId, placedBy), gt(holds.expiresAt, at), isNull(holds.endedAt)));

/**
 * Keeps a seat of the business's active service (and, with providers, the person's time) for
 * `ttlSeconds`, under the rules of a booking, for the caller's API key: at most
 * MAX_LIVE_HOLDS_PER_KEY live holds per key (409 `hold_limit_reached` beyond), or as `bound`
 * says. Answers the calendar's result: the hold, or its refusal, which leaves nothing held.
 *
 * The audit record (`hold.created`) is written in the batch that adds the hold's D1 row and taken
 * back with it on a refusal, so the row and its record exist together or not at all. Its actor is
 * the caller (a member or the key), or for a booking page the customer, named by the hold's id.
 */
export async function createHold(
  env: Env,
  db: Database,
  caller: Pick<Caller, "businessId" | "keyId" | "member">,
  request: HoldRequest,
  bound: HoldBound = keyBound(caller.keyId),
): Promise<HoldResult> {
  const { businessId } = caller;
  const now = Date.now();
  const { service, providers, resources } = await loadBookableService(db, businessId, request.serviceId, {
    providerId: request.providerId,
  });
  const id = newId("hold", now);
  // The placer's place is taken before the calendar is asked, counted and inserted in one
  // statement, so a burst cannot pass the limit; it is given back if the calendar refuses.
  const expiresAt = new Date(now + request.ttlSeconds * 1000).toISOString();
  const at = new Date(now).toISOString();
  const auditId = creationAuditId(id);
  const [added] = await db.batch([
    insertWhere(
      db,
      holds,
      { id, businessId, serviceId: service.id, apiKeyId: bound.placedBy, expiresAt, endedAt: null, createdAt: at },
      lt(sql`(${livePlacedBy(db, bound.placedBy, at)})`, bound.max),
    ),
    recordIfChanged(db, {
      id: auditId,
      businessId,
      actor: bound.page ? customerActor(id) : actorOf(caller),
      action: "hold.created",
      resource: { type: "hold", id },
      fields: fieldsOf(request),
    }),
  ]);
  if (added.meta.changes === 0) throw new ApiError("hold_limit_reached", bound.refusal);
  const giveBack = () =>
    db.batch([db.delete(holds).where(eq(holds.id, id)), db.delete(auditEvents).where(eq(auditEvents.id, auditId))]);
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
