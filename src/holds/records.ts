/** Holds as the Worker finds them: D1 says which service's calendar keeps one, the calendar what it is now. */
import { and, eq, isNull } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import { serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { holds } from "../db/schema";
import { ApiError } from "../lib/api-error";
import type { Actor } from "../types/actor";
import type { Hold } from "../types/hold";

/** The service whose calendar keeps the business's hold with this id (D1 alone), or undefined. */
export async function serviceOfHold(db: Database, businessId: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ serviceId: holds.serviceId })
    .from(holds)
    .where(and(eq(holds.businessId, businessId), eq(holds.id, id)))
    .limit(1);
  return row?.serviceId;
}

/** The business's hold with this id as its calendar knows it now, and its service; null if there is none. */
export async function holdOf(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
): Promise<{ hold: Hold; serviceId: string } | null> {
  const serviceId = await serviceOfHold(db, businessId, id);
  const hold = serviceId ? await serviceCalendarOf(env, businessId, serviceId).getHold(id) : null;
  return serviceId && hold ? { hold, serviceId } : null;
}

/** The business's hold with this id as its calendar knows it now, or a 404 that does not tell tenants apart. */
export async function loadHold(env: Env, db: Database, businessId: string, id: string) {
  const found = await holdOf(env, db, businessId, id);
  if (!found) throw new ApiError("not_found", `No hold ${id}.`);
  return found;
}

/**
 * Frees the business's hold's seat (and provider's time) at once; a hold that already ended stays
 * as it is. D1 learns the hold ended, and when this released it (not an expiry or a booking), the
 * `hold.released` record by `actor` is written in that same statement's batch, only if it changed
 * the row: a DELETE sent again writes nothing, and one sent again after a reset between the
 * calendar and D1 writes both.
 */
export async function releaseHold(env: Env, db: Database, businessId: string, id: string, actor: Actor): Promise<void> {
  const serviceId = await serviceOfHold(db, businessId, id);
  // One call: the calendar answers the hold as it now is, or null for none (no read before it).
  const ended = serviceId ? await serviceCalendarOf(env, businessId, serviceId).releaseHold(id) : null;
  if (!ended) throw new ApiError("not_found", `No hold ${id}.`);
  const end = db
    .update(holds)
    .set({ endedAt: new Date().toISOString() })
    .where(and(eq(holds.businessId, businessId), eq(holds.id, id), isNull(holds.endedAt)));
  if (ended?.status !== "RELEASED") {
    await end;
    return;
  }
  const resource = { type: "hold", id };
  await db.batch([
    end,
    recordIfChanged(db, { businessId, actor, action: "hold.released", resource, fields: ["status"] }),
  ]);
}
