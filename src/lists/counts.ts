/**
 * The counts kept in `list_counts` (src/db/schema/counts.ts): how a list reads its `total` in one
 * row, and the recount that checks them. D1's triggers keep them in the same statement as the
 * booking or customer they count (migrations/0006_list_counts_triggers_search.sql).
 */
import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { bind, preparedOnce } from "../db/prepared";
import { bookingProviders, bookings, customers, listCounts } from "../db/schema";
import type { BookingFilters } from "../types/booking";

/** What a count is kept for: a whole list, or a bookings list with one filter. */
export type CountedDimension =
  | "bookings"
  | "bookings.status"
  | "bookings.serviceId"
  | "bookings.customerId"
  | "bookings.providerId"
  | "customers";

/** The kept count of one dimension and value ('' for a whole list), as a read for a batch. */
export function keptTotal(db: Database, businessId: string, dimension: CountedDimension, value = "") {
  const query = preparedOnce(db, "list-counts:one", (db) =>
    db
      .select({ total: listCounts.n })
      .from(listCounts)
      .where(
        and(
          eq(listCounts.businessId, sql.placeholder("businessId")),
          eq(listCounts.dimension, sql.placeholder("dimension")),
          eq(listCounts.value, sql.placeholder("value")),
        ),
      )
      .prepare(),
  );
  return bind(query, { businessId, dimension, value });
}

/**
 * The one filter of a bookings list whose count is kept, or "bookings" for none; undefined when
 * the filters combine (or bound the time) and the list has to count its matching rows.
 */
export function keptBookingDimension(
  filters: BookingFilters,
): { dimension: CountedDimension; value: string } | undefined {
  const { from, to, resourceId, ...kept } = filters;
  if (from !== undefined || to !== undefined || resourceId !== undefined) return undefined;
  const present = Object.entries(kept).filter(([, value]) => value !== undefined) as [string, string][];
  if (present.length === 0) return { dimension: "bookings", value: "" };
  if (present.length > 1) return undefined;
  const [[name, value]] = present as [[string, string]];
  return { dimension: `bookings.${name}` as CountedDimension, value };
}

/** A kept count that differs from the rows it counts. */
export type CountDrift = {
  businessId: string;
  dimension: CountedDimension;
  value: string;
  kept: number;
  actual: number;
};

/**
 * Recounts every kept count of one business (or all) from the rows and answers the counts that
 * differ: a check, run by the reconciliation; it reads every booking and customer it recounts.
 */
export async function recountLists(db: Database, businessId?: string): Promise<CountDrift[]> {
  const ofBusiness = (column: SQLiteColumn) => (businessId === undefined ? undefined : eq(column, businessId));
  const grouped = (dimension: CountedDimension, column: SQLiteColumn | undefined) =>
    db
      .select({
        businessId: bookings.businessId,
        value: column ? sql<string>`${column}` : sql<string>`''`,
        n: count(),
      })
      .from(bookings)
      .where(and(ofBusiness(bookings.businessId), column ? isNotNull(column) : undefined))
      .groupBy(bookings.businessId, ...(column ? [column] : []))
      .then((rows) => rows.map((row) => ({ ...row, dimension })));
  const [kept, ...actual] = await Promise.all([
    db.select().from(listCounts).where(ofBusiness(listCounts.businessId)),
    grouped("bookings", undefined),
    grouped("bookings.status", bookings.status),
    grouped("bookings.serviceId", bookings.serviceId),
    grouped("bookings.customerId", bookings.customerId),
    // A person's count is of their assignment rows: a team's booking counts for each of its people.
    db
      .select({ businessId: bookingProviders.businessId, value: bookingProviders.providerId, n: count() })
      .from(bookingProviders)
      .where(ofBusiness(bookingProviders.businessId))
      .groupBy(bookingProviders.businessId, bookingProviders.providerId)
      .then((rows) => rows.map((row) => ({ ...row, dimension: "bookings.providerId" as const }))),
    db
      .select({ businessId: customers.businessId, value: sql<string>`''`, n: count() })
      .from(customers)
      .where(and(ofBusiness(customers.businessId), isNull(customers.erasedAt)))
      .groupBy(customers.businessId)
      .then((rows) => rows.map((row) => ({ ...row, dimension: "customers" as const }))),
  ]);
  const keyOf = (r: { businessId: string; dimension: string; value: string }) =>
    `${r.businessId}\n${r.dimension}\n${r.value}`;
  const counted = new Map(actual.flat().map((r) => [keyOf(r), r]));
  const drift: CountDrift[] = [];
  for (const row of kept) {
    const real = counted.get(keyOf(row));
    counted.delete(keyOf(row));
    if ((real?.n ?? 0) !== row.n) {
      const { businessId, dimension, value } = row;
      drift.push({ businessId, dimension: dimension as CountedDimension, value, kept: row.n, actual: real?.n ?? 0 });
    }
  }
  for (const { businessId, dimension, value, n } of counted.values()) {
    drift.push({ businessId, dimension, value, kept: 0, actual: n });
  }
  return drift;
}
