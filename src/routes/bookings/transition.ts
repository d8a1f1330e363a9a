import type { Context } from "hono";
import { bookingOrThrow } from "../../bookings/refusal";
import { changeBooking, type TransitionCommand } from "../../calendar";
import type { AppEnv } from "../../env";
import { loadBooking } from "./load";

/** Sends a status change or edit of the caller's booking through its service's calendar. */
export async function transitionBooking(c: Context<AppEnv>, command: TransitionCommand) {
  const { businessId } = c.var.caller;
  const stored = await loadBooking(c.var.db, businessId, command.bookingId);
  const result = await changeBooking(c.env, businessId, stored.serviceId, command);
  return bookingOrThrow(result);
}
