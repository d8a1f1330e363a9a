/**
 * A booking as the VEVENT written into a person's own calendar (`writeBookings`): one member per
 * booking at `{calendar URL}/{bookingId}.ics`, UID the booking id, SEQUENCE raised with every
 * change, and a property that marks it as ours so it is never read back as busy. It shows the
 * service's name only: nothing of the customer, whose details stay in the API (an erasure has
 * nothing to chase in staff calendars).
 */
import { escapeText, fold, utcStamp } from "../../lib/ical";
import { OWN_EVENT_PROPERTY } from "./expand";

/** What the event of a booking is made of. */
export type BookingEventFields = {
  bookingId: string;
  summary: string;
  start: number;
  end: number;
  sequence: number;
  stamp: number;
};

/** The URL of a booking's member in the calendar collection at `calendarUrl`. */
export function bookingMemberUrl(calendarUrl: string, bookingId: string): string {
  const collection = calendarUrl.endsWith("/") ? calendarUrl : `${calendarUrl}/`;
  return new URL(`${encodeURIComponent(bookingId)}.ics`, collection).href;
}

/** The iCalendar object of one booking's event. */
export function bookingEventData(event: BookingEventFields): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-api//staff calendars//EN",
    "CALSCALE:GREGORIAN",
    "BEGIN:VEVENT",
    `UID:${escapeText(event.bookingId)}`,
    `DTSTAMP:${utcStamp(iso(event.stamp))}`,
    `DTSTART:${utcStamp(iso(event.start))}`,
    `DTEND:${utcStamp(iso(event.end))}`,
    `SEQUENCE:${event.sequence}`,
    `SUMMARY:${escapeText(event.summary)}`,
    "STATUS:CONFIRMED",
    "TRANSP:OPAQUE",
    `${OWN_EVENT_PROPERTY.toUpperCase()}:${escapeText(event.bookingId)}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
