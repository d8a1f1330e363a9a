/**
 * The link rows of a booking in D1 (`booking_providers`, `booking_resources`): one per person and
 * resource it claims, rebuilt from the booking row as D1 holds it after the upsert beside them in
 * the batch, so a replay of an older version (which the upsert ignores) cannot bring back old links.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bookingProviders, bookingResources, bookings } from "../../db/schema";

/** Each element of one of the booking row's JSON id arrays (`j.value`), to join the row with. */
const eachOf = (ids: typeof bookings.providerIds | typeof bookings.resourceIds) => sql`json_each(${ids}) AS j`;

/** The statements that make a booking's link rows match its row; they follow its upsert in one batch. */
export function linkStatements(db: Database, bookingId: string) {
  // Selected in the link tables' column order, as an insert from a select needs.
  return [
    db.delete(bookingProviders).where(eq(bookingProviders.bookingId, bookingId)),
    db.insert(bookingProviders).select(
      db
        .select({
          bookingId: bookings.id,
          providerId: sql<string>`j.value`.as("provider_id"),
          businessId: bookings.businessId,
          startTime: bookings.startTime,
        })
        .from(bookings)
        .innerJoin(eachOf(bookings.providerIds), sql`true`)
        .where(eq(bookings.id, bookingId)),
    ),
    db.delete(bookingResources).where(eq(bookingResources.bookingId, bookingId)),
    db.insert(bookingResources).select(
      db
        .select({
          bookingId: bookings.id,
          resourceId: sql<string>`j.value`.as("resource_id"),
          businessId: bookings.businessId,
          startTime: bookings.startTime,
        })
        .from(bookings)
        .innerJoin(eachOf(bookings.resourceIds), sql`true`)
        .where(eq(bookings.id, bookingId)),
    ),
  ] as const;
}
