/** Changes to a service: a compare-and-set on its version, with the calendar told before the answer. */
import { and, eq, sql } from "drizzle-orm";
import { proposeServiceChange, serviceChanged } from "../calendar";
import type { Database } from "../db/client";
import { type ServiceRow, services } from "../db/schema";
import { ApiError } from "../lib/errors";
import { assertIfMatch, etagOf } from "../lib/etag";
import { nothingWritten } from "../lib/rows";
import { assertProvidersExist, providerIdsOf, replaceProviders } from "./providers";
import { loadService, type ServiceFields, toService } from "./records";

const changedMeanwhile = () =>
  new ApiError("unavailable", "The service changed while this request ran; retry.", {
    headers: { "Retry-After": "1" },
  });

/**
 * Applies the changes to the business's service (and, with `providerIds`, who performs it) and
 * answers it as the API shows it, with its new version. With If-Match tags, only if the service
 * still has one of them (else 412). Before answering, the calendar learns the new version, so
 * from then on it refuses what was decided against the old settings (if it cannot be told, the
 * change is saved but the answer is a 503 to retry).
 */
export async function editService(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  { providerIds, ...changes }: Partial<ServiceFields> & { providerIds?: string[] },
  ifMatch: string[] | undefined,
) {
  if (providerIds) await assertProvidersExist(db, businessId, providerIds);
  let where = and(eq(services.businessId, businessId), eq(services.id, id));
  let updatedAt = new Date();
  const proposal = await proposeSeats(env, db, businessId, id, changes.capacity, providerIds);
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
  // The provider links change in the same batch, and only if this update won.
  const [rows] = providerIds
    ? await db.batch([update, ...replaceProviders(db, id, providerIds, stamp)])
    : [await update];
  const row = rows[0];
  if (!row) throw proposal && ifMatch === undefined ? changedMeanwhile() : nothingWritten("service", id, ifMatch);
  await serviceChanged(env, businessId, id, row.version);
  const linked = providerIds ?? (await providerIdsOf(db, businessId, [id])).get(id) ?? [];
  return { service: toService(row, linked), version: row.version };
}

/**
 * A change that leaves fewer seats (a lower capacity, or a service with providers that stops
 * having any, whose seats were counted per person) is first proposed to the calendar, which
 * refuses it while upcoming bookings or live holds would be over the new seats (409
 * `bookings_conflict` listing where) and otherwise holds off commands decided against the old
 * settings until the PATCH confirms. Answers the service as read for the proposal, or undefined
 * when the change leaves no fewer seats.
 */
async function proposeSeats(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  capacity: number | undefined,
  providerIds: string[] | undefined,
): Promise<{ current: ServiceRow } | undefined> {
  if (capacity === undefined && providerIds?.length !== 0) return undefined;
  const current = await loadService(db, businessId, id);
  const before = (await providerIdsOf(db, businessId, [id])).get(id) ?? [];
  const after = providerIds ?? before;
  const fewer = (capacity ?? current.capacity) < current.capacity || (before.length > 0 && after.length === 0);
  if (!fewer) return undefined;
  const answer = await proposeServiceChange(env, businessId, id, {
    version: current.version + 1,
    capacity: capacity ?? current.capacity,
    withProviders: after.length > 0,
  });
  if (answer.ok) return { current };
  if (answer.reason === "changed_meanwhile") throw changedMeanwhile();
  throw new ApiError(
    "bookings_conflict",
    `Upcoming bookings would be over the new seats (${answer.conflicts.length} place${answer.conflicts.length === 1 ? "" : "s"} listed in conflicts): cancel or move them first, or keep the seats.`,
    { extensions: { conflicts: answer.conflicts } },
  );
}
