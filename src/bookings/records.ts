/** Bookings as D1 keeps them: one by id (the lists are in src/bookings/list.ts). */
import type { Database } from "../db/client";
import { type BookingRow, bookings } from "../db/schema";
import { loadOwned } from "../lib/rows";

/** The business's booking with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadBooking = (db: Database, businessId: string, id: string): Promise<BookingRow> =>
  loadOwned(db, bookings, "booking", businessId, id);
