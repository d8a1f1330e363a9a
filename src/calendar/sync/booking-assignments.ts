/**
 * The assignment rows of a booking in D1 (`booking_providers`, `booking_resources`): one per person and
 * resource it claims, rebuilt from the booking row as D1 holds it after the upsert beside them in
 * the batch, so a replay of an older version (which the upsert ignores) cannot bring back old assignments.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { bookingProviders, bookingResources, bookings } from "../../db/schema";

/**
 * The statements that make a booking's assignment rows match its row, prepared once per handle; they
 * follow its upsert in one batch, bound with `{ id }` (the booking's).
 */
export function assignmentWrites(db: Database) {
  const id = sql.placeholder("id");
  // One row per element of the booking's JSON id array, in the assignment tables' column order
  // (booking, person or resource, business, start), as an insert from a select needs.
  const relink = (
    table: typeof bookingProviders | typeof bookingResources,
    ids: typeof bookings.providerIds | typeof bookings.resourceIds,
  ) => [
    db.delete(table).where(eq(table.bookingId, id)).prepare(),
    db
      .insert(table)
      .select(
        sql`SELECT ${bookings.id}, j.value, ${bookings.businessId}, ${bookings.startTime} FROM ${bookings}, json_each(${ids}) AS j WHERE ${bookings.id} = ${id}`,
      )
      .prepare(),
  ];
  return preparedOnce(db, "persist.assignments", () => [
    ...relink(bookingProviders, bookings.providerIds),
    ...relink(bookingResources, bookings.resourceIds),
  ]);
}
