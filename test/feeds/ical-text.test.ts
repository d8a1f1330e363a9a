/**
 * Hostile text through the iCalendar writer (src/lib/ical.ts), read back by ical.js: commas,
 * semicolons, line breaks, backslashes, quotes, non-ASCII and a 2,000-character description come
 * back as written (control characters aside), and every line stays within 75 octets, each a
 * whole UTF-8 text (folding never cuts a character).
 */
import fc from "fast-check";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { writeIcal } from "../../src/lib/ical";
import { icalEvent as event, feedOf, parseCalendar } from "../support/feeds";

const hostile = 'Cut, colour; wash \\ dry\nand style: "Zoë" 😀 東京 ^n\\n,';
const BELL = String.fromCharCode(7);
const NUL = String.fromCharCode(0);

/** What a TEXT value reads back as: CRLF and CR as LF, no control character but HTAB and LF. */
const readBackAs = (text: string) =>
  text.replace(/\r\n|\r/g, "\n").replace(new RegExp(`[${NUL}-\\x08\\x0b-\\x1f\\x7f]`, "g"), "");

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();

/** Every physical line is at most 75 octets and a whole UTF-8 text on its own. */
function expectFolded(text: string) {
  const lines = text.split("\r\n");
  expect(lines.at(-1)).toBe("");
  for (const line of lines) {
    const bytes = encoder.encode(line);
    expect(bytes.length).toBeLessThanOrEqual(75);
    expect(() => strict.decode(bytes)).not.toThrow();
  }
}

/** X-WR-CALNAME as a calendar app reads it: a TEXT value (ical.js keeps a property it does not know raw). */
const calendarName = (text: string) => {
  const raw = new ICAL.Component(ICAL.parse(text)).getFirstPropertyValue("x-wr-calname") as string;
  return (ICAL.design.icalendar.value.text as { fromICAL(value: string): string }).fromICAL(raw);
};

describe("iCalendar text, hostile", () => {
  it("escapes commas, semicolons, backslashes and line breaks, and drops control characters", () => {
    const summary = `${hostile}\r\nsecond\rthird${BELL}${NUL}\tend`;
    const text = feedOf([event({ summary, description: summary, uid: "bkg_1,2;3" })], hostile);
    expect(text).toContain("SUMMARY:Cut\\, colour\\; wash \\\\ dry\\nand style:");
    const { calendar, events } = parseCalendar(text);
    expect(events[0]?.summary).toBe(`${hostile}\nsecond\nthird\tend`);
    expect(events[0]?.uid).toBe("bkg_1,2;3");
    const vevent = calendar.getFirstSubcomponent("vevent") as ICAL.Component;
    expect(vevent.getFirstPropertyValue("description")).toBe(`${hostile}\nsecond\nthird\tend`);
    expect(calendarName(text)).toBe(hostile);
    expectFolded(text);
  });

  it("a 2,000-character description of every kind of character reads back whole, folded within 75 octets", () => {
    const description = "Ünïcødé, «quotes»; 😀👩‍👩‍👧 \\ back\nslash 東京都 ".repeat(50).slice(0, 2000);
    expect(description.length).toBe(2000);
    const text = feedOf([event({ description, url: `https://book.example/m/${"x".repeat(300)}` })]);
    expectFolded(text);
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent") as ICAL.Component;
    expect(vevent.getFirstPropertyValue("description")).toBe(description);
    expect(vevent.getFirstPropertyValue("url")).toBe(`https://book.example/m/${"x".repeat(300)}`);
  });

  it("a party's name keeps commas, colons, semicolons and non-ASCII; quotes and line breaks are dropped", () => {
    const text = writeIcal({
      product: "calendar feed",
      method: "REQUEST",
      events: [
        event({
          organizer: { name: 'Salon "Chez" Zoë; Paris, FR: ^1^', email: "desk@salon.example" },
          attendee: { name: `Ada\r\nBcc: x@evil.example${BELL}`, email: "ada@example.com" },
        }),
      ],
    });
    expectFolded(text);
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent") as ICAL.Component;
    expect(vevent.getFirstProperty("organizer")?.getParameter("cn")).toBe("Salon Chez Zoë; Paris, FR: ^1^");
    expect(vevent.getFirstPropertyValue("organizer")).toBe("mailto:desk@salon.example");
    expect(vevent.getFirstProperty("attendee")?.getParameter("cn")).toBe("AdaBcc: x@evil.example");
    expect(vevent.getFirstPropertyValue("attendee")).toBe("mailto:ada@example.com");
  });

  it("any summary and calendar name read back as written, control characters aside, in lines of 75 octets", () => {
    fc.assert(
      fc.property(
        // `size: "max"`: lengths up to the maximum (long lines to fold), not fast-check's short default.
        fc.oneof(
          fc.string({ maxLength: 300, size: "max" }),
          fc.string({ unit: "grapheme", maxLength: 200, size: "max" }),
        ),
        fc.string({ unit: "binary", maxLength: 100, size: "max" }),
        (summary, name) => {
          const text = feedOf([event({ summary })], name);
          expectFolded(text);
          expect(parseCalendar(text).events[0]?.summary ?? "").toBe(readBackAs(summary));
          expect(calendarName(text)).toBe(readBackAs(name));
        },
      ),
      { numRuns: 200 },
    );
  });
});
