/**
 * The assignment rows of bookings in D1 (`booking_providers`, `booking_resources`): one per person and
 * resource each claims, rebuilt from the booking rows as D1 holds them after the upserts before them
 * in the batch, so a replay of an older version (which the upsert ignores) cannot bring back old
 * assignments. Four statements for a whole batch of bookings, whatever its size.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { bookingProviders, bookingResources, bookings } from "../../db/schema";

/**
 * The statements that make the assignment rows of bookings match their rows, prepared once per
 * handle; they follow the bookings' upserts in one batch, bound with `{ ids }`: the bookings' ids
 * as a JSON array.
 */
export function assignmentWrites(db: Database) {
  const ids = sql`(SELECT value FROM json_each(${sql.placeholder("ids")}))`;
  // One row per element of each booking's JSON id array, in the assignment tables' column order
  // (booking, person or resource, business, start), as an insert from a select needs.
  const relink = (
    db: Database,
    table: typeof bookingProviders | typeof bookingResources,
    column: typeof bookings.providerIds | typeof bookings.resourceIds,
  ) => [
    db.delete(table).where(sql`${table.bookingId} IN ${ids}`).prepare(),
    db
      .insert(table)
      .select(
        sql`SELECT ${bookings.id}, j.value, ${bookings.businessId}, ${bookings.startTime} FROM ${bookings}, json_each(${column}) AS j WHERE ${bookings.id} IN ${ids}`,
      )
      .prepare(),
  ];
  return preparedOnce(db, "persist.assignments", (db) => [
    ...relink(db, bookingProviders, bookings.providerIds),
    ...relink(db, bookingResources, bookings.resourceIds),
  ]);
}

/** The values `assignmentWrites` is bound with, for bookings with these ids. */
export const assignmentIds = (ids: readonly string[]) => ({ ids: JSON.stringify(ids) });
