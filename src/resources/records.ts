/** Resources' rows: one by id, a new one, a page of them, and the public shape. */
import { fieldsOf, recordQuery } from "../audit/record";
import { resourceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { type ResourceRow, resources } from "../db/schema";
import { newId } from "../lib/ids";
import { firstVersion, loadOwned } from "../lib/rows";
import { activeNewestFirst } from "../lists/newest-first";
import type { PageRequest } from "../lists/pagination";
import { pushSettings } from "../refusals";
import type { Actor } from "../types/actor";
import { resourceSnapshotOf } from "./snapshot";

/** Pushes a stored resource's settings to its calendar, or answers a 503 to retry. */
export const configureResourceCalendar = (env: Env, row: ResourceRow) =>
  pushSettings("resource", row.id, () =>
    resourceCalendarOf(env, row.businessId, row.id).configure(resourceSnapshotOf(row)),
  );

/** A resource's own settings, as a client writes them. */
export type ResourceFields = Omit<ResourceRow, "id" | "businessId" | "createdAt" | "updatedAt" | "version">;

/** The business's resource with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadResource = (db: Database, businessId: string, id: string): Promise<ResourceRow> =>
  loadOwned(db, resources, "resource", businessId, id);

/** The public shape of a stored resource. */
export function toResource(row: ResourceRow) {
  return {
    id: row.id,
    name: row.name,
    quantity: row.quantity,
    timezone: row.timezone,
    weeklySchedule: row.weeklySchedule ?? null,
    dateOverrides: row.dateOverrides,
    active: row.active,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Adds a resource and sets up its calendar before answering (a 503 to retry if it cannot be
 * reached; the resource is stored). Answers the resource as the API shows it, and its version.
 */
export async function addResource(
  env: Env,
  db: Database,
  businessId: string,
  fields: Omit<ResourceFields, "weeklySchedule"> & { weeklySchedule?: ResourceFields["weeklySchedule"] },
  actor: Actor,
) {
  const id = newId("resource");
  const [[row]] = await db.batch([
    db
      .insert(resources)
      .values({ ...fields, weeklySchedule: fields.weeklySchedule ?? null, businessId, ...firstVersion(id) })
      .returning(),
    recordQuery(db, {
      businessId,
      actor,
      action: "resource.created",
      resource: { type: "resource", id },
      fields: fieldsOf(fields),
    }),
  ]);
  const stored = row as NonNullable<typeof row>;
  await configureResourceCalendar(env, stored);
  return { resource: toResource(stored), version: stored.version };
}

/** One page of the business's active (or inactive) resources, newest first, and how many there are. */
export async function resourcePage(db: Database, businessId: string, query: PageRequest & { active: boolean }) {
  const { rows, total } = await activeNewestFirst(db, resources, businessId, query);
  return { items: rows.map(toResource), total };
}
