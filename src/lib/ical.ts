/**
 * The one iCalendar (RFC 5545) writer. Every `.ics` the API gives out is written here: a person's
 * feed and one booking's file, the booking page's "add to calendar" file, the invite an e-mail
 * carries (RFC 5546) and the event written into a person's own calendar over CalDAV. It builds
 * ical.js's component tree (jCal arrays, one per event) and lets ical.js write it: TEXT escaped,
 * times in UTC, lines folded at 75 octets (never inside a UTF-8 character) and ended by CRLF.
 * Pure functions; ical.js reads them back in the tests.
 */
import ICAL from "ical.js";

/** An instant as an ISO 8601 string or epoch milliseconds; always written in UTC. */
export type Instant = string | number;

/** A party of an invite (ORGANIZER or ATTENDEE): a name and an e-mail address. */
export type IcalParty = { name: string; email: string };

/** A feed or a file publishes; an e-mail's invite requests (new or moved) or cancels (RFC 5546). */
export type IcalMethod = "PUBLISH" | "REQUEST" | "CANCEL";

/** One VEVENT. What it shows is its writer's choice (a feed: never the customer's e-mail, phone or notes). */
export type IcalEvent = {
  uid: string;
  summary: string;
  start: Instant;
  end: Instant;
  /** DTSTAMP: when this copy of the event was made (a feed and an invite: the booking's last change). */
  stamp: Instant;
  /** LAST-MODIFIED: when the booking last changed. */
  modified?: Instant;
  status: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
  /** The event's revision: every change raises it, so an app updates the event it has. */
  sequence?: number;
  description?: string;
  url?: string;
  organizer?: IcalParty;
  attendee?: IcalParty;
  transp?: "OPAQUE" | "TRANSPARENT";
  /** The mark of an event this API wrote into a person's calendar (`X-BOOKING-API-BOOKING`): the booking id. */
  ownMark?: string;
};

/** A VCALENDAR: who wrote it, its method and name, and its events. */
export type IcalFile = {
  /** The part of the API in PRODID (`-//booking-api//{product}//EN`). */
  product: "calendar feed" | "booking page" | "connected calendars";
  /** None in a CalDAV resource, which must not carry one (RFC 4791, 4.1). */
  method?: IcalMethod;
  /** X-WR-CALNAME: the title a calendar app gives a subscription. */
  name?: string;
  events: IcalEvent[];
};

/** The property marking a VEVENT this API wrote for a booking (read back as "ours", never as busy). */
export const OWN_EVENT_PROPERTY = "x-booking-api-booking";

/** Characters built from codes, so the patterns stay printable. */
const range = (from: number, to: number) => `${String.fromCharCode(from)}-${String.fromCharCode(to)}`;
/** What a TEXT value cannot hold: every C0 control but HTAB and LF (LF is written as `\n`), and DEL. */
const textControls = new RegExp(`[${range(0, 8)}${range(11, 31)}${String.fromCharCode(127)}]`, "g");
/** What a quoted parameter cannot hold: every C0 control but HTAB, DEL, and DQUOTE. */
const paramForbidden = new RegExp(`[${range(0, 8)}${range(10, 31)}${String.fromCharCode(127)}"]`, "g");

/** A TEXT value as ical.js escapes it: line breaks as LF, no control characters. */
const text = (value: string) => value.replace(/\r\n?/g, "\n").replace(textControls, "");

/** `2026-12-01T10:00:00Z`, jCal's form of a UTC DATE-TIME (ical.js writes `20261201T100000Z`). */
const utc = (at: Instant) => `${new Date(at).toISOString().slice(0, 19)}Z`;

/**
 * ical.js's iCalendar design, with our two non-standard properties as TEXT (RFC 5545 3.8.8.2):
 * ical.js would write an unknown property's value unescaped. Its own set stays as it is.
 */
const design = {
  ...ICAL.design.icalendar,
  property: {
    ...ICAL.design.icalendar.property,
    "x-wr-calname": { defaultType: "text" },
    [OWN_EVENT_PROPERTY]: { defaultType: "text" },
  },
};

type JcalProperty = [name: string, params: Record<string, string>, type: string, value: string | number];

/** An ORGANIZER or ATTENDEE: the name (when there is one) as CN, then the mailto URI. */
function party(property: string, who: IcalParty, params: Record<string, string> = {}): JcalProperty {
  const name = who.name.replace(paramForbidden, "");
  return [property, name ? { cn: name, ...params } : params, "cal-address", `mailto:${who.email}`];
}

/** One event as ical.js's jCal array, its properties in the order they are written. */
function eventTree(event: IcalEvent): unknown[] {
  const props: JcalProperty[] = [["uid", {}, "text", text(event.uid)]];
  if (event.sequence !== undefined) props.push(["sequence", {}, "integer", event.sequence]);
  props.push(["dtstamp", {}, "date-time", utc(event.stamp)]);
  if (event.modified !== undefined) props.push(["last-modified", {}, "date-time", utc(event.modified)]);
  props.push(["dtstart", {}, "date-time", utc(event.start)]);
  props.push(["dtend", {}, "date-time", utc(event.end)]);
  props.push(["summary", {}, "text", text(event.summary)]);
  if (event.description) props.push(["description", {}, "text", text(event.description)]);
  if (event.url) props.push(["url", {}, "uri", event.url]);
  if (event.organizer) props.push(party("organizer", event.organizer));
  if (event.attendee) {
    const reply = { role: "REQ-PARTICIPANT", partstat: "ACCEPTED", rsvp: "FALSE" };
    props.push(party("attendee", event.attendee, reply));
  }
  props.push(["status", {}, "text", event.status]);
  if (event.transp) props.push(["transp", {}, "text", event.transp]);
  if (event.ownMark !== undefined) props.push([OWN_EVENT_PROPERTY, {}, "text", text(event.ownMark)]);
  return ["vevent", props, []];
}

/** The iCalendar text of `file`: one VCALENDAR, CRLF after every line. */
export function writeIcal(file: IcalFile): string {
  const props: JcalProperty[] = [
    ["version", {}, "text", "2.0"],
    ["prodid", {}, "text", `-//booking-api//${file.product}//EN`],
    ["calscale", {}, "text", "GREGORIAN"],
  ];
  if (file.method) props.push(["method", {}, "text", file.method]);
  if (file.name !== undefined) props.push(["x-wr-calname", {}, "text", text(file.name)]);
  // ical.js counts its fold length without the space a continuation line starts with: 74 keeps
  // every line, that space included, within RFC 5545's 75 octets. Only writing reads it.
  ICAL.foldLength = 74;
  return `${ICAL.stringify.component(["vcalendar", props, file.events.map(eventTree)], design)}\r\n`;
}
