/**
 * Cancelling several bookings one after another (a visit's segments, a series' occurrences),
 * each in its own service's calendar: each cancel is final where it lands, so a failure midway
 * leaves the rest for a retry of the same request.
 */

import { serviceCalendarOf } from "../calendar";
import { bookingOrThrow } from "../refusals";
import type { Actor } from "../types/actor";
import type { Booking } from "../types/booking";

/**
 * Cancels each booking; answers those this call cancelled, by id. One another request
 * cancelled (or completed) meanwhile is skipped.
 */
export async function cancelEach(
  env: Env,
  businessId: string,
  bookings: Booking[],
  reason: string | null,
  actor: Actor,
): Promise<Map<string, Booking>> {
  const cancelled = new Map<string, Booking>();
  for (const booking of bookings) {
    const result = await serviceCalendarOf(env, businessId, booking.serviceId).changeBookingStatus({
      bookingId: booking.id,
      status: "CANCELLED",
      cancellationReason: reason,
      actor,
    });
    if (!result.ok && result.refusal.code === "invalid_transition") continue;
    cancelled.set(booking.id, bookingOrThrow(result).booking);
  }
  // A segment's seat may have been held back by a person or room another segment still held:
  // each service's waitlist is offered again once all are cancelled.
  const services = new Set(bookings.map((b) => b.serviceId));
  if (services.size > 1)
    await Promise.all([...services].map((id) => serviceCalendarOf(env, businessId, id).offerWaitlist()));
  return cancelled;
}
