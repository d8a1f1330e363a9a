import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { type BookingRow, bookings } from "../../db/schema";
import { ApiError } from "../../lib/errors";

/** The caller's booking with this id, or a 404 that does not tell other tenants' ids apart. */
export async function loadBooking(db: Database, businessId: string, id: string): Promise<BookingRow> {
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.businessId, businessId), eq(bookings.id, id)))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No booking ${id}.`);
  return row;
}
