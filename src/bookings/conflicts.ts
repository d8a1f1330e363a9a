/**
 * A booking answer's `conflicts`, read from D1 where the calendar objects pushed them
 * (docs/staff-calendars.md, "Conflicts"): the open ones of a page of bookings in one query, a
 * cancelled booking none.
 */
import { and, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bookingConflicts, bookings } from "../db/schema";
import type { Booking } from "../domain/booking";
import type { BookingConflict } from "../domain/conflict";

/** A booking with its open conflicts (`[]` when none). */
export type ConflictedBooking = Booking & { conflicts: BookingConflict[] };

/** The bookings with their open conflicts, oldest found first; one D1 read for them all. */
export async function withConflicts(db: Database, businessId: string, items: Booking[]): Promise<ConflictedBooking[]> {
  const open = items.filter((b) => b.status !== "CANCELLED").map((b) => b.id);
  const found = new Map<string, BookingConflict[]>();
  if (open.length > 0) {
    const t = bookingConflicts;
    // One bound value for the whole page (D1 binds at most 100).
    const rows = await db
      .select({ bookingId: t.bookingId, kind: t.kind, detectedAt: t.detectedAt, detail: t.detail })
      .from(t)
      .where(
        and(
          eq(t.businessId, businessId),
          isNull(t.clearedAt),
          sql`${t.bookingId} IN (SELECT value FROM json_each(${JSON.stringify(open)}))`,
        ),
      )
      .orderBy(t.detectedAt, t.kind);
    for (const { bookingId, ...conflict } of rows) found.set(bookingId, [...(found.get(bookingId) ?? []), conflict]);
  }
  return items.map((booking) => ({ ...booking, conflicts: found.get(booking.id) ?? [] }));
}

/** The bookings list's `conflicted` filter: those with an open conflict (`true`) or without (`false`). */
export function conflictedFilter(db: Database, wanted: boolean) {
  const t = bookingConflicts;
  const open = db
    .select({ id: t.bookingId })
    .from(t)
    .where(and(eq(t.businessId, sql.placeholder("businessId")), isNull(t.clearedAt)));
  return wanted ? inArray(bookings.id, open) : notInArray(bookings.id, open);
}
