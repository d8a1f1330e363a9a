/**
 * The iCalendar text of src/lib/ical.ts as a real parser (ical.js) reads it: escapes, folding
 * at 75 octets without splitting a character, UTC times, and any summary text surviving the trip.
 */
import fc from "fast-check";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { type CalendarEvent, fold, renderCalendar } from "../../src/lib/ical";
import { parseCalendar } from "../support/feeds";

const event = (overrides: Partial<CalendarEvent> = {}): CalendarEvent => ({
  uid: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y",
  summary: "Haircut — Ada",
  start: "2026-12-01T10:00:00.000Z",
  end: "2026-12-01T10:30:00.000Z",
  updatedAt: "2026-11-24T09:00:00.000Z",
  status: "CONFIRMED",
  ...overrides,
});

/** Every event's start is in UTC (a `Z` time, which ical.js reads as the UTC zone). */
const allUtc = (calendar: ICAL.Component) =>
  calendar.getAllSubcomponents("vevent").every((c) => new ICAL.Event(c).startDate.zone?.tzid === "UTC");

describe("iCalendar text", () => {
  it("is a VCALENDAR of one VEVENT per event, in UTC, every line ended by CRLF", () => {
    const text = renderCalendar("Stylist 0", [event(), event({ uid: "bkg_2", status: "TENTATIVE" })]);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const { calendar, events } = parseCalendar(text);
    expect(allUtc(calendar)).toBe(true);
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
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
  });

  it("escapes commas, semicolons, backslashes and line breaks, and drops control characters", () => {
    const summary = "Cut, colour; wash \\ dry\nand style\u0007";
    const { events } = parseCalendar(renderCalendar("x", [event({ summary })]));
    expect(events[0]?.summary).toBe("Cut, colour; wash \\ dry\nand style");
  });

  it("folds long lines at 75 octets, never inside a UTF-8 character", () => {
    const line = `SUMMARY:${"é😀a".repeat(40)}`;
    const folded = fold(line);
    const encoder = new TextEncoder();
    for (const part of folded.split("\r\n")) expect(encoder.encode(part).length).toBeLessThanOrEqual(75);
    expect(folded.replaceAll("\r\n ", "")).toBe(line);
  });

  it("any line folds into parts of at most 75 octets that join back to it (ASCII fast path included)", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 120 })), (text) => {
        const line = `SUMMARY:${text.replace(/[\r\n]/g, "")}`;
        const folded = fold(line);
        for (const part of folded.split("\r\n")) expect(encoder.encode(part).length).toBeLessThanOrEqual(75);
        expect(folded.replaceAll("\r\n ", "")).toBe(line);
      }),
      { numRuns: 2000 },
    );
  });

  it("any summary text reads back as written, control characters aside", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const { events } = parseCalendar(renderCalendar("x", [event({ summary: text })]));
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a TEXT value cannot hold
        const expected = text.replace(/\r\n|\r/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
        expect(events[0]?.summary ?? "").toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
