/** Changes to a service: a compare-and-set on its version, with the calendar told before the answer. */

import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { fieldsOf, recordIfChanged } from "../audit/record";
import { serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { bookings, type ServiceRow, services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { assertIfMatch, etagOf } from "../lib/etag";
import { nothingWritten } from "../lib/rows";
import type { Actor } from "../types/actor";
import { HOLDING_STATUSES } from "../types/booking";
import { assertAssignable, replaceAssignments } from "./assignments";
import { loadBookableService } from "./bookable";
import { assignmentsOf, loadService, type ServiceAssignments, type ServiceFields, toService } from "./records";

const changedMeanwhile = () => new ApiError("unavailable", "The service changed while this request ran; retry.");

/**
 * Applies the changes to the business's service (and, with `providerIds` or `resourceIds`, who
 * performs it and what it needs) and answers it as the API shows it, with its new version. With
 * If-Match tags, only if the service still has one of them (else 412). Before answering, the
 * calendar learns the new version, so from then on it refuses what was decided against the old
 * settings (if it cannot be told, the change is saved but the answer is a 503 to retry).
 */
export async function editService(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  { providerIds, resourceIds, ...changes }: Partial<ServiceFields> & Partial<ServiceAssignments>,
  ifMatch: string[] | undefined,
  actor: Actor,
) {
  await Promise.all([
    providerIds && assertAssignable(db, "provider", businessId, providerIds),
    resourceIds && assertAssignable(db, "resource", businessId, resourceIds),
  ]);
  let where = and(eq(services.businessId, businessId), eq(services.id, id));
  let updatedAt = new Date();
  const proposal = await propose(env, db, businessId, id, { ...changes, providerIds, resourceIds });
  if (ifMatch !== undefined || proposal) {
    // Check the tag (or the proposal's version), then write only if nothing changed in between.
    const current = proposal?.current ?? (await loadService(db, businessId, id));
    assertIfMatch(ifMatch, etagOf(current.version));
    where = and(where, eq(services.version, current.version));
    updatedAt = new Date(Math.max(updatedAt.getTime(), Date.parse(current.updatedAt) + 1));
  }
  const stamp = updatedAt.toISOString();
  const update = db
    .update(services)
    .set({ ...changes, updatedAt: stamp, version: sql`${services.version} + 1` })
    .where(where)
    .returning();
  // The assignments change in the same batch, and only if this update won.
  const [rows] = await db.batch([
    update,
    recordIfChanged(db, {
      businessId,
      actor,
      action: "service.updated",
      resource: { type: "service", id },
      fields: fieldsOf({ ...changes, providerIds, resourceIds }),
    }),
    ...(providerIds ? replaceAssignments(db, "provider", id, providerIds, stamp) : []),
    ...(resourceIds ? replaceAssignments(db, "resource", id, resourceIds, stamp) : []),
  ]);
  const row = rows[0];
  if (!row) throw proposal && ifMatch === undefined ? changedMeanwhile() : nothingWritten("service", id, ifMatch);
  // The calendar's waitlist offers holds with the service and staffing as they are now.
  const now = await loadBookableService(db, businessId, id, { inactive: null });
  await serviceCalendarOf(env, businessId, id).serviceChanged(row.version, {
    reminders: changes.reminders && row.reminders.map((r) => r.offsetMinutes),
    offers: { service: now.service, providers: now.providers, resources: now.resources, active: row.active },
  });
  const stored = providerIds && resourceIds ? { providerIds, resourceIds } : await assignmentsOf(db, businessId, id);
  return {
    service: toService(row, {
      providerIds: providerIds ?? stored.providerIds,
      resourceIds: resourceIds ?? stored.resourceIds,
    }),
    version: row.version,
  };
}

/** What a PATCH changes that existing bookings could conflict with. */
type Change = { capacity?: number; providerMode?: "one" | "all"; providerIds?: string[]; resourceIds?: string[] };

/**
 * A change existing bookings could conflict with is first proposed to the calendar, which
 * refuses it while upcoming bookings or live holds conflict (409 `bookings_conflict` listing
 * where) and otherwise holds off commands decided against the old settings until the PATCH
 * confirms:
 *
 * - fewer seats: a lower capacity, or a service with providers that stops having any (its seats
 *   were counted per person) — conflicts where the new seats would be over;
 * - more to claim: a resource added, or a new `providerMode` — bookings made before claimed
 *   neither, so any upcoming one conflicts (proposed as zero seats, which lists every one).
 *
 * Answers the service as read for the proposal, or undefined when there is nothing to propose.
 */
async function propose(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  change: Change,
): Promise<{ current: ServiceRow } | undefined> {
  const { capacity, providerMode, providerIds, resourceIds } = change;
  if (capacity === undefined && providerIds?.length !== 0 && !providerMode && !resourceIds) return undefined;
  const [current, before] = await Promise.all([loadService(db, businessId, id), assignmentsOf(db, businessId, id)]);
  const after = providerIds ?? before.providerIds;
  const claimsMore =
    (providerMode !== undefined && providerMode !== current.providerMode) ||
    (resourceIds ?? []).some((r) => !before.resourceIds.includes(r));
  const fewer =
    (capacity ?? current.capacity) < current.capacity || (before.providerIds.length > 0 && after.length === 0);
  if (!fewer && !claimsMore) return undefined;
  const answer = await serviceCalendarOf(env, businessId, id).proposeChange({
    version: current.version + 1,
    capacity: claimsMore ? 0 : (capacity ?? current.capacity),
    withProviders: after.length > 0,
  });
  if (answer.ok) return { current };
  if (answer.reason === "changed_meanwhile") throw changedMeanwhile();
  const places = `${answer.conflicts.length} place${answer.conflicts.length === 1 ? "" : "s"} listed in conflicts`;
  const upcoming = claimsMore ? await upcomingCount(db, businessId, id) : 0;
  throw new ApiError(
    "bookings_conflict",
    claimsMore
      ? `The service has ${upcoming} upcoming booking${upcoming === 1 ? "" : "s"} (or live holds; ${places}) made without the new resources or provider mode: cancel or move them first, or make the change once they are past.`
      : `Upcoming bookings would be over the new seats (${places}): cancel or move them first, or keep the seats.`,
    { extensions: { conflicts: answer.conflicts, ...(claimsMore ? { upcomingBookings: upcoming } : {}) } },
  );
}

/** How many of the service's bookings D1 knows that are active and not over yet. */
async function upcomingCount(db: Database, businessId: string, serviceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bookings)
    .where(
      and(
        eq(bookings.businessId, businessId),
        eq(bookings.serviceId, serviceId),
        inArray(bookings.status, [...HOLDING_STATUSES]),
        gt(bookings.endTime, new Date().toISOString()),
      ),
    );
  return row?.n ?? 0;
}
