/** Visits as D1 keeps them: the bookings that carry the visit's id, and the visit they make up. */
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { bookings } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { type Booking, type BookingStatus, toBooking } from "../types/booking";

/** A visit as the API answers it. */
export type Visit<B extends Booking = Booking> = {
  id: string;
  startTime: string;
  endTime: string;
  status: BookingStatus;
  bookings: B[];
};

/** Which status a visit shows when its segments differ: the first of these a segment not cancelled has. */
const SHOWN_FIRST: BookingStatus[] = ["PENDING", "CONFIRMED", "COMPLETED", "NO_SHOW"];

/** The visit its segments (in order) make up. */
export function visitOf<B extends Booking>(id: string, segments: B[]): Visit<B> {
  const statuses = new Set(segments.map((b) => b.status));
  return {
    id,
    startTime: segments[0]?.startTime ?? "",
    endTime: segments.at(-1)?.endTime ?? "",
    status: SHOWN_FIRST.find((s) => statuses.has(s)) ?? "CANCELLED",
    bookings: segments,
  };
}

/** The business's visit with this id, its segments in order; a 404 that does not tell other tenants' ids apart. */
export async function loadVisit(db: Database, businessId: string, id: string): Promise<Visit> {
  const rows = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.businessId, businessId), eq(bookings.appointmentId, id)))
    .orderBy(asc(bookings.startTime), asc(bookings.id))
    .limit(10);
  if (rows.length === 0) throw new ApiError("not_found", `No appointment ${id}.`);
  return visitOf(id, rows.map(toBooking));
}
