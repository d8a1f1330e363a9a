import { type StatusChangeCommand, serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { bookingOrThrow } from "../refusals";
import { loadBooking } from "./list";

/** Sends a status change (or a notes edit) of the business's booking through its service's calendar. */
export async function changeBookingStatus(env: Env, db: Database, businessId: string, command: StatusChangeCommand) {
  const stored = await loadBooking(db, businessId, command.bookingId);
  const result = await serviceCalendarOf(env, businessId, stored.serviceId).changeBookingStatus(command);
  return bookingOrThrow(result);
}
