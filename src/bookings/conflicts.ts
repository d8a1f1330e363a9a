/**
 * A booking answer's `conflicts`, read from D1 where the calendar objects pushed them
 * (docs/staff-calendars.md, "Conflicts"): the open ones of a page of bookings in one query, a
 * cancelled booking none.
 */
import { and, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { preparedOnce } from "../db/prepared";
import { bookingConflicts, bookings } from "../db/schema";
import { ApiError } from "../lib/api-error";
import type { BookingConflict } from "../types/booking";
import { type Booking, toBooking } from "../types/booking";

/** A booking with its open conflicts (`[]` when none). */
export type ConflictedBooking = Booking & { conflicts: BookingConflict[] };

/**
 * The business's booking with this id and its open conflicts, in one D1 round trip (a 404 when
 * there is no such booking); a cancelled booking has none.
 */
export async function loadWithConflicts(db: Database, businessId: string, id: string) {
  const t = bookingConflicts;
  const [rows, conflicts] = await db.batch([
    db
      .select()
      .from(bookings)
      .where(and(eq(bookings.businessId, businessId), eq(bookings.id, id)))
      .limit(1),
    db
      .select({ kind: t.kind, detectedAt: t.detectedAt, detail: t.detail })
      .from(t)
      .where(and(eq(t.businessId, businessId), eq(t.bookingId, id), isNull(t.clearedAt)))
      .orderBy(t.detectedAt, t.kind),
  ]);
  const row = rows[0];
  if (!row) throw new ApiError("not_found", `No booking ${id}.`);
  const booking = toBooking(row);
  return { row, booking: { ...booking, conflicts: booking.status === "CANCELLED" ? [] : conflicts } };
}

/** A booking of a business without open conflicts, as answers carry it. */
export const noConflicts = (booking: Booking): ConflictedBooking => ({ ...booking, conflicts: [] });

/** The bookings with their open conflicts, oldest found first; one D1 read for them all. */
export async function withConflicts<T extends Pick<Booking, "id" | "status">>(
  db: Database,
  businessId: string,
  items: T[],
): Promise<(T & { conflicts: BookingConflict[] })[]> {
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

/**
 * Whether the business has any open conflict, read in a list's own batch: without one (the
 * common case) a page needs no second round trip for its bookings' conflicts.
 */
export const anyOpenConflict = (db: Database) =>
  preparedOnce(db, "bookings-any-conflict", (db) =>
    db
      .select({ one: sql<number>`1` })
      .from(bookingConflicts)
      .where(and(eq(bookingConflicts.businessId, sql.placeholder("businessId")), isNull(bookingConflicts.clearedAt)))
      .limit(1)
      .prepare(),
  );

/** The bookings list's `conflicted` filter: those with an open conflict (`true`) or without (`false`). */
export function conflictedFilter(db: Database, wanted: boolean) {
  const t = bookingConflicts;
  const open = db
    .select({ id: t.bookingId })
    .from(t)
    .where(and(eq(t.businessId, sql.placeholder("businessId")), isNull(t.clearedAt)));
  return wanted ? inArray(bookings.id, open) : notInArray(bookings.id, open);
}
