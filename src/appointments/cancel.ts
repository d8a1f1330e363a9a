/**
 * Cancelling a visit: every segment still PENDING or CONFIRMED is cancelled in its own service's
 * calendar, one after another. Each cancel is final where it lands; a cancel that fails midway
 * leaves the rest for a retry of the same request, which cancels what is left.
 */

import { bookingOrThrow } from "../bookings/refusal";
import { changeBooking } from "../calendar";
import type { Database } from "../db/client";
import { holdsCapacity } from "../domain/booking";
import { ApiError } from "../lib/errors";
import { type Appointment, appointmentOf, loadAppointment } from "./records";

const noneLeft = (id: string) =>
  new ApiError("invalid_transition", `No segment of appointment ${id} is PENDING or CONFIRMED.`);

/** Cancels the business's visit; a 409 `invalid_transition` when no segment is left to cancel. */
export async function cancelAppointment(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  reason: string | null,
): Promise<Appointment> {
  const visit = await loadAppointment(db, businessId, id);
  const open = visit.bookings.filter((b) => holdsCapacity(b.status));
  if (open.length === 0) throw noneLeft(id);
  const cancelled = new Map<string, Appointment["bookings"][number]>();
  for (const booking of open) {
    const result = await changeBooking(env, businessId, booking.serviceId, {
      bookingId: booking.id,
      status: "CANCELLED",
      cancellationReason: reason,
    });
    // Cancelled (or completed) by another request meanwhile: nothing left to do for it.
    if (!result.ok && result.refusal.code === "invalid_transition") continue;
    cancelled.set(booking.id, bookingOrThrow(result).booking);
  }
  if (cancelled.size === 0) throw noneLeft(id);
  // Segments another request changed meanwhile are read again, as they stand now.
  if (cancelled.size < open.length) return loadAppointment(db, businessId, id);
  return appointmentOf(
    id,
    visit.bookings.map((b) => cancelled.get(b.id) ?? b),
  );
}
