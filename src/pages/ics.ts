/** A booking as a customer's `.ics`: one event, its times in UTC, the manage link to change it. */

import type { managedView } from "../bookings/by-link";
import { escapeText, fold, utcStamp } from "../lib/ical";

/** The text of the customer's calendar file for `booking` at `businessName`. */
export function bookingIcs(booking: ReturnType<typeof managedView>, businessName: string): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-api//booking page//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${escapeText(booking.id)}`,
    `DTSTAMP:${utcStamp(new Date().toISOString())}`,
    `DTSTART:${utcStamp(booking.startTime)}`,
    `DTEND:${utcStamp(booking.endTime)}`,
    `SUMMARY:${escapeText(`${booking.service.name} — ${businessName}`)}`,
    ...(booking.manageUrl
      ? [`DESCRIPTION:${escapeText(`Change or cancel: ${booking.manageUrl}`)}`, `URL:${booking.manageUrl}`]
      : []),
    `STATUS:${booking.status === "PENDING" ? "TENTATIVE" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
