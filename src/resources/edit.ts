/** Changes to a resource: a compare-and-set on its version, checked with its calendar when it leaves fewer units. */

import { and, eq, type SQL, sql } from "drizzle-orm";
import { fieldsOf, recordIfChanged } from "../audit/record";
import { resourceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { type ResourceRow, resources } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { ifMatchCondition, nothingWritten } from "../lib/rows";
import type { Actor } from "../types/actor";
import { configureResourceCalendar, loadResource, type ResourceFields, toResource } from "./records";
import { resourceSnapshotOf } from "./snapshot";

const changedMeanwhile = () => new ApiError("unavailable", "The resource changed while this request ran; retry.");

/**
 * Replaces the given settings of the business's resource (with If-Match tags, only if it still
 * has one of them: else 412), then pushes them to the resource's calendar before answering, so
 * no new booking is decided against the old ones. A change that leaves fewer units (a lower
 * `quantity`, or `active: false`, which leaves none) is proposed to the calendar first and
 * refused with 409 `bookings_conflict` while upcoming bookings or live holds would not fit.
 * Answers the resource and its new version.
 */
export async function editResource(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  changes: Partial<ResourceFields>,
  ifMatch: string[] | undefined,
  actor: Actor,
) {
  let unchangedSince: SQL | undefined;
  let proposed = false;
  if (ifMatch !== undefined || fewerUnitsPossible(changes)) {
    // Check the tag, then write only if nothing changed in between (compare-and-set on version).
    const current = await loadResource(db, businessId, id);
    unchangedSince =
      ifMatchCondition(ifMatch, resources.version, current.version) ?? eq(resources.version, current.version);
    proposed = await proposeFewerUnits(env, current, changes);
  }
  const [[row]] = await db.batch([
    db
      .update(resources)
      .set({ ...changes, version: sql`${resources.version} + 1`, updatedAt: new Date().toISOString() })
      .where(and(eq(resources.businessId, businessId), eq(resources.id, id), unchangedSince))
      .returning(),
    recordIfChanged(db, {
      businessId,
      actor,
      action: "resource.updated",
      resource: { type: "resource", id },
      fields: fieldsOf(changes),
    }),
  ]);
  if (!row) throw proposed && ifMatch === undefined ? changedMeanwhile() : nothingWritten("resource", id, ifMatch);
  await configureResourceCalendar(env, row);
  return { resource: toResource(row), version: row.version };
}

/** Whether the change may leave fewer units (then the stored settings are read to tell). */
const fewerUnitsPossible = (changes: Partial<ResourceFields>) =>
  changes.quantity !== undefined || changes.active === false;

/**
 * Proposes the change to the resource's calendar when it leaves fewer units than `current`;
 * answers whether it did. Throws 409 with the conflicts, or 503 when the calendar already holds
 * a newer version.
 */
async function proposeFewerUnits(env: Env, current: ResourceRow, changes: Partial<ResourceFields>): Promise<boolean> {
  const next = { ...current, ...changes, version: current.version + 1 };
  const units = (r: Pick<ResourceRow, "active" | "quantity">) => (r.active ? r.quantity : 0);
  if (units(next) >= units(current)) return false;
  const answer = await resourceCalendarOf(env, next.businessId, next.id).propose({
    ...resourceSnapshotOf(next),
    quantity: units(next),
  });
  if (answer.ok) return true;
  if (answer.reason === "changed_meanwhile") throw changedMeanwhile();
  const listed = answer.conflicts.length;
  throw new ApiError(
    "bookings_conflict",
    `Upcoming bookings or live holds would not fit in ${next.active ? `${next.quantity} unit${next.quantity === 1 ? "" : "s"}` : "an inactive resource"} (${listed} place${listed === 1 ? "" : "s"} listed in conflicts): cancel or move them first, or keep the units.`,
    { extensions: { conflicts: answer.conflicts } },
  );
}
