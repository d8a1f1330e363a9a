/**
 * The link rows of a booking in D1 (`booking_providers`, `booking_resources`): one per person and
 * resource it claims, rebuilt from the booking row as D1 holds it after the upsert beside them in
 * the batch, so a replay of an older version (which the upsert ignores) cannot bring back old links.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bookingProviders, bookingResources, bookings } from "../../db/schema";

/** The statements that make a booking's link rows match its row; they follow its upsert in one batch. */
export function linkStatements(db: Database, bookingId: string) {
  const links = [
    { table: bookingProviders, column: bookingProviders.providerId, ids: bookings.providerIds },
    { table: bookingResources, column: bookingResources.resourceId, ids: bookings.resourceIds },
  ] as const;
  return links.flatMap(({ table, column, ids }) => [
    db.run(sql`DELETE FROM ${table} WHERE ${table.bookingId} = ${bookingId}`),
    db.run(
      sql`INSERT INTO ${table} (${sql.identifier(table.bookingId.name)}, ${sql.identifier(column.name)}, ${sql.identifier(table.businessId.name)}, ${sql.identifier(table.startTime.name)})
          SELECT ${bookings.id}, j.value, ${bookings.businessId}, ${bookings.startTime}
          FROM ${bookings}, json_each(${ids}) AS j WHERE ${bookings.id} = ${bookingId}`,
    ),
  ]);
}
