/** A booking as a customer's `.ics`: one event, its times in UTC, the manage link to change it. */

import type { managedView } from "../bookings/by-link";
import { writeIcal } from "../lib/ical";

/** The text of the customer's calendar file for `booking` at `businessName`. */
export function bookingIcs(booking: ReturnType<typeof managedView>, businessName: string): string {
  return writeIcal({
    product: "booking page",
    method: "PUBLISH",
    events: [
      {
        uid: booking.id,
        stamp: Date.now(),
        start: booking.startTime,
        end: booking.endTime,
        summary: `${booking.service.name} — ${businessName}`,
        ...(booking.manageUrl ? { description: `Change or cancel: ${booking.manageUrl}`, url: booking.manageUrl } : {}),
        status: booking.status === "PENDING" ? "TENTATIVE" : "CONFIRMED",
      },
    ],
  });
}
