/** Waitlist entries: where each is kept (D1 knows the service), and the entry as its calendar has it. */
import { and, count, eq, gt, isNull } from "drizzle-orm";
import { waitlistOf } from "../calendar";
import type { Database } from "../db/client";
import { holds, services, waitlistEntries } from "../db/schema";
import type { WaitlistEntry, WaitlistStatus } from "../domain/waitlist";
import { ApiError } from "../lib/errors";
import { loadOwned } from "../lib/rows";

/** The most entries one API key may queue in 24 hours. */
export const MAX_PER_KEY_PER_DAY = 200;

/** The business's entry, as its service's calendar has it now; a 404 that does not tell other tenants' ids apart. */
export async function entryOf(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
): Promise<{ serviceId: string; entry: WaitlistEntry }> {
  const row = await loadOwned(db, waitlistEntries, "waitlist entry", businessId, id);
  const entry = await waitlistOf(env, businessId, row.serviceId).entry(id);
  if (!entry) throw new ApiError("not_found", `No waitlist entry ${id}.`);
  return { serviceId: row.serviceId, entry };
}

/** How many entries the key queued in the last 24 hours. */
export async function queuedByKey(db: Database, apiKeyId: string): Promise<number> {
  const since = new Date(Date.now() - 86_400_000).toISOString();
  const [row] = await db
    .select({ n: count() })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.apiKeyId, apiKeyId), gt(waitlistEntries.createdAt, since)));
  return row?.n ?? 0;
}

/** The entries of the business's service (a 422 at `serviceId` when it has no such service). */
export async function listOfService(
  env: Env,
  db: Database,
  businessId: string,
  serviceId: string,
  status: WaitlistStatus | undefined,
  limit: number,
): Promise<WaitlistEntry[]> {
  const [owned] = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.id, serviceId)))
    .limit(1);
  if (!owned) {
    throw new ApiError("validation_failed", `No service ${serviceId}.`, {
      errors: [{ path: "serviceId", message: "No such service." }],
    });
  }
  return waitlistOf(env, businessId, serviceId).list(status, limit);
}

/**
 * Takes the business's entry off its waitlist; an offered hold is released by the calendar, and
 * D1 learns the hold ended (as it does for `DELETE /holds/{id}`), so nothing counts it as live.
 */
export async function leave(env: Env, db: Database, businessId: string, id: string): Promise<void> {
  const { serviceId, entry } = await entryOf(env, db, businessId, id);
  await waitlistOf(env, businessId, serviceId).leave(id);
  if (entry.status === "OFFERED" && entry.holdId) {
    await db
      .update(holds)
      .set({ endedAt: new Date().toISOString() })
      .where(and(eq(holds.businessId, businessId), eq(holds.id, entry.holdId), isNull(holds.endedAt)));
  }
}
