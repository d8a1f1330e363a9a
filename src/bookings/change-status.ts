import { changeBooking, type TransitionCommand } from "../calendar";
import type { Database } from "../db/client";
import { bookingOrThrow } from "../refusals/problems";
import { loadBooking } from "./records";

/** Sends a status change or edit of the business's booking through its service's calendar. */
export async function changeBookingStatus(env: Env, db: Database, businessId: string, command: TransitionCommand) {
  const stored = await loadBooking(db, businessId, command.bookingId);
  const result = await changeBooking(env, businessId, stored.serviceId, command);
  return bookingOrThrow(result);
}
