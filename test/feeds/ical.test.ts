/**
 * The one iCalendar writer (src/lib/ical.ts) as a real parser (ical.js) reads it: every property
 * the feeds, the booking page, the invites and the connected calendars write, in UTC, CRLF-ended;
 * the CalDAV event without a METHOD and marked as ours.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { bookingEventData } from "../../src/calendar/connected/booking-event";
import { expandMember } from "../../src/calendar/connected/expand";
import { writeIcal } from "../../src/lib/ical";
import { icalEvent as event, feedOf, parseCalendar } from "../support/feeds";

/** Every event's start is in UTC (a `Z` time, which ical.js reads as the UTC zone). */
const allUtc = (calendar: ICAL.Component) =>
  calendar.getAllSubcomponents("vevent").every((c) => new ICAL.Event(c).startDate.zone?.tzid === "UTC");

const iso = (time: unknown) => (time as ICAL.Time).toJSDate().toISOString();

describe("iCalendar text", () => {
  it("is a VCALENDAR of one VEVENT per event, in UTC, every line ended by CRLF", () => {
    const text = feedOf([event(), event({ uid: "bkg_2", status: "TENTATIVE" })]);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const { calendar, events } = parseCalendar(text);
    expect(allUtc(calendar)).toBe(true);
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//booking-api//calendar feed//EN");
    expect(calendar.getFirstPropertyValue("calscale")).toBe("GREGORIAN");
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Stylist 0");
    expect(events).toEqual([
      {
        uid: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y",
        summary: "Haircut — Ada",
        start: "2026-12-01T10:00:00.000Z",
        end: "2026-12-01T10:30:00.000Z",
        status: "CONFIRMED",
      },
      expect.objectContaining({ uid: "bkg_2", status: "TENTATIVE" }),
    ]);
    const first = calendar.getFirstSubcomponent("vevent") as ICAL.Component;
    expect(iso(first.getFirstPropertyValue("dtstamp"))).toBe("2026-11-24T09:00:00.000Z");
    expect(iso(first.getFirstPropertyValue("last-modified"))).toBe("2026-11-24T09:00:00.000Z");
    expect(first.hasProperty("sequence")).toBe(false);
    expect(first.hasProperty("organizer")).toBe(false);
  });

  it("writes an invite's revision, parties, description and link, and a cancel", () => {
    const invite = event({
      sequence: 3,
      description: "https://book.example/m/abc",
      url: "https://book.example/m/abc?a=1,2;b",
      organizer: { name: "Salon Zoë", email: "desk@salon.example" },
      attendee: { name: "Ada Lovelace", email: "ada@example.com" },
    });
    const text = writeIcal({ product: "calendar feed", method: "REQUEST", name: "Salon", events: [invite] });
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    const vevent = calendar.getFirstSubcomponent("vevent") as ICAL.Component;
    const read = new ICAL.Event(vevent);
    expect(read.sequence).toBe(3);
    expect(read.description).toBe("https://book.example/m/abc");
    expect(vevent.getFirstPropertyValue("url")).toBe("https://book.example/m/abc?a=1,2;b");
    const organizer = vevent.getFirstProperty("organizer") as ICAL.Property;
    expect([organizer.getFirstValue(), organizer.getParameter("cn")]).toEqual([
      "mailto:desk@salon.example",
      "Salon Zoë",
    ]);
    const attendee = vevent.getFirstProperty("attendee") as ICAL.Property;
    expect(attendee.getFirstValue()).toBe("mailto:ada@example.com");
    expect(attendee.toJSON()[1]).toEqual({
      cn: "Ada Lovelace",
      role: "REQ-PARTICIPANT",
      partstat: "ACCEPTED",
      rsvp: "FALSE",
    });

    const cancel = writeIcal({
      product: "calendar feed",
      method: "CANCEL",
      events: [{ ...invite, status: "CANCELLED" }],
    });
    const cancelled = new ICAL.Component(ICAL.parse(cancel));
    expect(cancelled.getFirstPropertyValue("method")).toBe("CANCEL");
    expect(cancelled.hasProperty("x-wr-calname")).toBe(false);
    expect(cancelled.getFirstSubcomponent("vevent")?.getFirstPropertyValue("status")).toBe("CANCELLED");
  });

  it("leaves out the name of a party that has none, rather than an empty CN", () => {
    const text = feedOf([event({ attendee: { name: "", email: "ada@example.com" } })]);
    const attendee = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")?.getFirstProperty("attendee");
    expect(attendee?.getParameter("cn")).toBeUndefined();
    expect(attendee?.getFirstValue()).toBe("mailto:ada@example.com");
  });

  it("a connected calendar's event: no METHOD, busy, SEQUENCE, and marked as ours so it is never read back as busy", () => {
    const text = bookingEventData({
      bookingId: "bkg_7",
      summary: "Cut",
      start: Date.parse("2026-12-01T10:00:00Z"),
      end: Date.parse("2026-12-01T10:30:00Z"),
      sequence: 4,
      stamp: Date.parse("2026-11-30T08:00:00Z"),
    });
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.hasProperty("method")).toBe(false);
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//booking-api//connected calendars//EN");
    const vevent = calendar.getFirstSubcomponent("vevent") as ICAL.Component;
    expect(new ICAL.Event(vevent).sequence).toBe(4);
    expect(vevent.getFirstPropertyValue("transp")).toBe("OPAQUE");
    expect(vevent.getFirstPropertyValue("x-booking-api-booking")).toBe("bkg_7");
    expect(iso(vevent.getFirstPropertyValue("dtstamp"))).toBe("2026-11-30T08:00:00.000Z");
    const window = { from: Date.parse("2026-12-01T00:00:00Z"), to: Date.parse("2026-12-02T00:00:00Z") };
    expect(expandMember(text, window, "Europe/Paris", 10)).toEqual({ kind: "own" });
    // The same event without the mark is busy: the mark is what keeps it out.
    const unmarked = text.replace(/X-BOOKING-API-BOOKING:.*\r\n/, "");
    expect(expandMember(unmarked, window, "Europe/Paris", 10)).toMatchObject({ kind: "busy", spans: [{}] });
  });

  it("takes instants as epoch milliseconds or ISO strings with an offset, and writes them in UTC", () => {
    const text = feedOf([event({ start: "2026-12-01T11:00:00+01:00", end: Date.parse("2026-12-01T10:30:00Z") })]);
    expect(text).toContain("\r\nDTSTART:20261201T100000Z\r\n");
    expect(text).toContain("\r\nDTEND:20261201T103000Z\r\n");
  });
});
