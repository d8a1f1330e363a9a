/**
 * The link rows of a booking in D1 (`booking_providers`, `booking_resources`): one per person and
 * resource it claims, rebuilt from the booking row as D1 holds it after the upsert beside them in
 * the batch, so a replay of an older version (which the upsert ignores) cannot bring back old links.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { preparedOnce } from "../../db/prepared";
import { bookingProviders, bookingResources, bookings } from "../../db/schema";

/** Each element of one of the booking row's JSON id arrays (`j.value`), to join the row with. */
const eachOf = (ids: typeof bookings.providerIds | typeof bookings.resourceIds) => sql`json_each(${ids}) AS j`;

/**
 * The statements that make a booking's link rows match its row, prepared once per handle; they
 * follow its upsert in one batch, bound with `{ id }` (the booking's).
 */
export function linkWrites(db: Database) {
  const id = sql.placeholder("id");
  // Selected in the link tables' column order, as an insert from a select needs.
  return preparedOnce(db, "persist.links", () => [
    db.delete(bookingProviders).where(eq(bookingProviders.bookingId, id)).prepare(),
    db
      .insert(bookingProviders)
      .select(
        db
          .select({
            bookingId: bookings.id,
            providerId: sql<string>`j.value`.as("provider_id"),
            businessId: bookings.businessId,
            startTime: bookings.startTime,
          })
          .from(bookings)
          .innerJoin(eachOf(bookings.providerIds), sql`true`)
          .where(eq(bookings.id, id)),
      )
      .prepare(),
    db.delete(bookingResources).where(eq(bookingResources.bookingId, id)).prepare(),
    db
      .insert(bookingResources)
      .select(
        db
          .select({
            bookingId: bookings.id,
            resourceId: sql<string>`j.value`.as("resource_id"),
            businessId: bookings.businessId,
            startTime: bookings.startTime,
          })
          .from(bookings)
          .innerJoin(eachOf(bookings.resourceIds), sql`true`)
          .where(eq(bookings.id, id)),
      )
      .prepare(),
  ]);
}
