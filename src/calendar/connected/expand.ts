/**
 * One calendar member's iCalendar data as the busy times it gives a person, expanded on our side
 * by ical.js (servers' own expansion is unreliable): recurring events by their RRULE, RDATE and
 * EXDATE, with instances moved or changed by a RECURRENCE-ID override; times in the zones the data
 * defines, floating ones in the person's zone, all-day events as whole local days. Events marked
 * TRANSP:TRANSPARENT or STATUS:CANCELLED (a series, or one instance) block nothing, nor do the
 * events this API wrote itself. Pure and synchronous.
 */
import ICAL from "ical.js";
import { OWN_EVENT_PROPERTY } from "../../lib/ical";
import { instantMs, ZoneNames } from "./ical-time";

/** A busy span in epoch milliseconds, `[start, end)`. */
export type BusySpan = { start: number; end: number };

/** What one member gives: busy spans (and whether a series goes on past the window), an own event, or nothing readable. */
export type Expansion =
  | { kind: "busy"; spans: BusySpan[]; continues: boolean }
  | { kind: "own" }
  | { kind: "malformed"; reason: string };

/** How many recurrences of one member are stepped through at most (from its first, before the window too). */
export const MAX_RECURRENCE_STEPS = 50_000;

type Window = { from: number; to: number };

const propertyOf = (event: ICAL.Event, name: string) =>
  String(event.component.getFirstPropertyValue(name) ?? "").toUpperCase();
const cancelled = (event: ICAL.Event) => propertyOf(event, "status") === "CANCELLED";
const blocks = (event: ICAL.Event) => !cancelled(event) && propertyOf(event, "transp") !== "TRANSPARENT";

const tzidOf = (event: ICAL.Event, name: "dtstart" | "dtend") =>
  (event.component.getFirstProperty(name)?.getParameter("tzid") as string | undefined) ??
  (event.component.getFirstProperty("dtstart")?.getParameter("tzid") as string | undefined);

/** The span of one occurrence, or null when it blocks nothing (zero length, or ends before it starts). */
function spanOf(item: ICAL.Event, start: ICAL.Time, end: ICAL.Time, zones: ZoneNames): BusySpan | null {
  const s = instantMs(start, tzidOf(item, "dtstart"), zones);
  const e = instantMs(end, tzidOf(item, "dtend"), zones);
  return e > s ? { start: s, end: e } : null;
}

const overlaps = (span: BusySpan, window: Window) => span.start < window.to && span.end > window.from;

/** The busy spans of one series (a master and its overrides) inside the window. */
function expandSeries(master: ICAL.Event, window: Window, zones: ZoneNames, spans: BusySpan[]): boolean {
  if (!master.isRecurring()) {
    const span = blocks(master) ? spanOf(master, master.startDate, master.endDate, zones) : null;
    if (span && overlaps(span, window)) spans.push(span);
    return false;
  }
  // A cancelled series blocks nothing; a transparent one may still have opaque instances.
  if (cancelled(master)) return false;
  const iterator = master.iterator();
  let steps = 0;
  for (let next = iterator.next(); next; next = iterator.next()) {
    if (++steps > MAX_RECURRENCE_STEPS) throw new RangeError(`more than ${MAX_RECURRENCE_STEPS} repetitions`);
    const details = master.getOccurrenceDetails(next);
    // Recurrences come in order of their original start: past the window, only overrides moved
    // into it can still block (they are handled below).
    if (instantMs(next, tzidOf(master, "dtstart"), zones) >= window.to) return true;
    if (!blocks(details.item)) continue;
    const span = spanOf(details.item, details.startDate, details.endDate, zones);
    if (span && overlaps(span, window)) spans.push(span);
  }
  return false;
}

/**
 * Expands one member's data into the busy spans overlapping the window; at most `maxSpans`
 * (more is a `RangeError`, which the caller turns into a failed sync).
 */
export function expandMember(data: string, window: Window, personalZone: string, maxSpans: number): Expansion {
  let events: ICAL.Event[];
  try {
    const calendar = new ICAL.Component(ICAL.parse(data));
    if (calendar.name !== "vcalendar") return { kind: "malformed", reason: "not a VCALENDAR" };
    events = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
  } catch (error) {
    return { kind: "malformed", reason: error instanceof Error ? error.message : String(error) };
  }
  if (events.some((event) => event.component.hasProperty(OWN_EVENT_PROPERTY))) return { kind: "own" };
  const zones = new ZoneNames(personalZone);
  const masters = new Map<string, ICAL.Event>();
  const overrides: ICAL.Event[] = [];
  for (const event of events) {
    if (event.isRecurrenceException()) overrides.push(event);
    else masters.set(event.uid, event);
  }
  const spans: BusySpan[] = [];
  let continues = false;
  try {
    for (const override of overrides) masters.get(override.uid)?.relateException(override);
    for (const master of masters.values()) continues = expandSeries(master, window, zones, spans) || continues;
    for (const override of overrides) {
      const master = masters.get(override.uid);
      const original = override.recurrenceId ? instantMs(override.recurrenceId, tzidOf(override, "dtstart"), zones) : 0;
      // An override without its series, or one moved in from past the window's end, counts on its own.
      if (master && original < window.to) continue;
      if (master?.isRecurring() === false) continue;
      const span = blocks(override) ? spanOf(override, override.startDate, override.endDate, zones) : null;
      if (span && overlaps(span, window)) spans.push(span);
    }
  } catch (error) {
    // Data ical.js cannot expand (a broken RRULE, a date it cannot place, endless repetitions).
    return { kind: "malformed", reason: error instanceof Error ? error.message : String(error) };
  }
  if (spans.length > maxSpans) throw new RangeError(`more than ${maxSpans} busy times`);
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  return { kind: "busy", spans, continues };
}
