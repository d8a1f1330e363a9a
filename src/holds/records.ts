/** Holds as the Worker finds them: D1 says which service's calendar keeps one, the calendar what it is now. */
import { and, eq, isNull } from "drizzle-orm";
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
 * as it is. When this released it (not an expiry or a booking), its calendar keeps the
 * `hold.released` record by `actor` in the transaction that released it and writes it to D1 (its
 * alarm does after a reset): a DELETE sent again records nothing more. D1 then learns the hold
 * ended; after a reset before that, the DELETE sent again tells it.
 */
export async function releaseHold(env: Env, db: Database, businessId: string, id: string, actor: Actor): Promise<void> {
  const serviceId = await serviceOfHold(db, businessId, id);
  // One call: the calendar answers the hold as it now is, or null for none (no read before it).
  const calendar = serviceId ? serviceCalendarOf(env, businessId, serviceId) : null;
  const ended = calendar ? await calendar.releaseHold(id, { businessId, actor }) : null;
  if (!ended) throw new ApiError("not_found", `No hold ${id}.`);
  await db
    .update(holds)
    .set({ endedAt: new Date().toISOString() })
    .where(and(eq(holds.businessId, businessId), eq(holds.id, id), isNull(holds.endedAt)));
}
