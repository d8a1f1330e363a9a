/**
 * iCalendar (RFC 5545) text for bookings, as the feeds and the staff calendars write it: one
 * VEVENT each, times in UTC, lines folded at 75 octets and ended by CRLF. Pure functions; a real
 * parser (ical.js) reads them in the tests.
 */

/** What an event shows: never the customer's e-mail, phone or the notes. */
export type CalendarEvent = {
  uid: string;
  summary: string;
  start: string;
  end: string;
  /** When the booking last changed (DTSTAMP and LAST-MODIFIED). */
  updatedAt: string;
  status: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
  /** An invite's (RFC 5546): its revision, who sends it and whom it is for, and a link. */
  sequence?: number;
  organizer?: Person;
  attendee?: Person;
  description?: string;
  url?: string;
};

/** A calendar user: a name and an e-mail address. */
export type Person = { name: string; email: string };

/** The calendar's method: a feed publishes; an e-mail invite requests or cancels (RFC 5546). */
export type CalendarMethod = "PUBLISH" | "REQUEST" | "CANCEL";

/** Every C0 control but HTAB, and DEL (built from a string: the pattern itself stays printable). */
const controlCharacters = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(10)}-${String.fromCharCode(31)}${String.fromCharCode(127)}]`,
  "g",
);

/** TEXT values escape backslash, semicolon and comma, and write line breaks as `\n` (3.3.11). */
export const escapeText = (text: string) =>
  text
    .replaceAll("\\", "\\\\")
    .replaceAll(";", "\\;")
    .replaceAll(",", "\\,")
    .replace(/\r\n|\r|\n/g, "\\n")
    // Control characters other than HTAB are not allowed in a TEXT value.
    .replace(controlCharacters, "");

/** `20261201T100000Z` from an ISO 8601 UTC instant. */
export const utcStamp = (iso: string) => `${new Date(iso).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/** The UTF-8 length of one character (a code point), without encoding it. */
const utf8Size = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** Folds a content line to 75 octets a line (3.1), never inside a UTF-8 character. */
export function fold(line: string): string {
  // Most lines are short: 75 UTF-16 units or fewer are at most 75 octets when all are ASCII.
  if (line.length <= 75 && /^[\x20-\x7e]*$/.test(line)) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = utf8Size(char);
    // Continuation lines start with a space, which counts against their 75 octets.
    if (octets + size > 75) {
      parts.push(current);
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n");
}

/** A CAL-ADDRESS property: the name as a quoted parameter (no DQUOTE or control allowed in it), then the mailto URI. */
const person = (property: string, params: string, who: Person) =>
  `${property};CN="${who.name.replace(controlCharacters, "").replaceAll('"', "")}"${params}:mailto:${who.email}`;

function eventLines(event: CalendarEvent): string[] {
  return [
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    ...(event.sequence === undefined ? [] : [`SEQUENCE:${event.sequence}`]),
    `DTSTAMP:${utcStamp(event.updatedAt)}`,
    `LAST-MODIFIED:${utcStamp(event.updatedAt)}`,
    `DTSTART:${utcStamp(event.start)}`,
    `DTEND:${utcStamp(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    ...(event.organizer ? [person("ORGANIZER", "", event.organizer)] : []),
    ...(event.attendee
      ? [person("ATTENDEE", ";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE", event.attendee)]
      : []),
    `STATUS:${event.status}`,
    "END:VEVENT",
  ];
}

/**
 * A VCALENDAR of the events, named `name` (the calendar app's title for a subscription); a feed
 * publishes, an e-mail's invite requests (new or moved) or cancels.
 */
export function renderCalendar(name: string, events: CalendarEvent[], method: CalendarMethod = "PUBLISH"): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-api//calendar feed//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${method}`,
    `X-WR-CALNAME:${escapeText(name)}`,
    ...events.flatMap(eventLines),
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

/** The first word of a name: what a feed shows of the customer. */
export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? "";
