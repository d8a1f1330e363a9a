/** Series as D1 keeps them: the row (rule, skipped occurrences) and the bookings that carry its id. */
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { bookings, type SkippedOccurrence, series } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { type Booking, toBooking } from "../types/booking";

/** A series as the API answers it. */
export type Series<B extends Booking = Booking> = {
  id: string;
  serviceId: string;
  recurrence: string;
  bookings: B[];
  skipped: SkippedOccurrence[];
};

export const seriesOf = <B extends Booking>(
  id: string,
  serviceId: string,
  recurrence: string,
  occurrences: B[],
  skipped: SkippedOccurrence[],
): Series<B> => ({ id, serviceId, recurrence, bookings: occurrences, skipped });

/** The most occurrences a series has (its rule's bound), read in one go. */
const MAX_READ = 60;

/** The business's series with this id and its bookings by start; a 404 that does not tell other tenants' ids apart. */
export async function loadSeries(db: Database, businessId: string, id: string): Promise<Series> {
  const [[row], rows] = await db.batch([
    db
      .select()
      .from(series)
      .where(and(eq(series.businessId, businessId), eq(series.id, id)))
      .limit(1),
    db
      .select()
      .from(bookings)
      .where(and(eq(bookings.businessId, businessId), eq(bookings.seriesId, id)))
      .orderBy(asc(bookings.startTime), asc(bookings.id))
      .limit(MAX_READ),
  ]);
  if (!row) throw new ApiError("not_found", `No series ${id}.`);
  return seriesOf(id, row.serviceId, row.recurrence, rows.map(toBooking), row.skipped);
}
