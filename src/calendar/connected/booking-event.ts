/**
 * A booking as the VEVENT written into a person's own calendar (`writeBookings`): one member per
 * booking at `{calendar URL}/{bookingId}.ics`, UID the booking id, SEQUENCE raised with every
 * change, and a property that marks it as ours so it is never read back as busy. It shows the
 * service's name only: nothing of the customer, whose details stay in the API (an erasure has
 * nothing to chase in connected calendars).
 */
import { writeIcal } from "../../lib/ical";

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

/** The iCalendar object of one booking's event (no METHOD: a CalDAV resource carries none). */
export function bookingEventData(event: BookingEventFields): string {
  return writeIcal({
    product: "connected calendars",
    events: [
      {
        uid: event.bookingId,
        stamp: event.stamp,
        start: event.start,
        end: event.end,
        sequence: event.sequence,
        summary: event.summary,
        status: "CONFIRMED",
        transp: "OPAQUE",
        ownMark: event.bookingId,
      },
    ],
  });
}
