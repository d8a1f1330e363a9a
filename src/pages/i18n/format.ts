/**
 * Dates and times as the pages write them, through Intl in the visitor's language and time zone.
 * Formatters are costly to build and cheap to use: each is made once per language, zone and style.
 */
import { TZDate } from "@date-fns/tz";
import type { Locale } from "../../types/business";

const styles = {
  time: { hour: "numeric", minute: "2-digit" },
  date: { weekday: "long", day: "numeric", month: "long", year: "numeric" },
  shortDate: { weekday: "short", day: "numeric", month: "short" },
  dateTime: { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit" },
  month: { month: "long", year: "numeric" },
  weekday: { weekday: "short" },
  offset: { timeZoneName: "shortOffset" },
  key: { year: "numeric", month: "2-digit", day: "2-digit" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

type Style = keyof typeof styles;

const MAX_FORMATTERS = 500;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, timeZone: string, style: Style): Intl.DateTimeFormat {
  const id = `${locale}|${timeZone}|${style}`;
  let made = formatters.get(id);
  if (!made) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    made = new Intl.DateTimeFormat(locale, { ...styles[style], timeZone });
    formatters.set(id, made);
  }
  return made;
}

/** A calendar date, `YYYY-MM-DD`, as the pages' links carry it. */
export type DayKey = string;

/** The date of an instant in a zone, as `YYYY-MM-DD`. */
export function dayKeyOf(instant: number | string, timeZone: string): DayKey {
  // en-CA writes dates as YYYY-MM-DD.
  return formatter("en-CA", timeZone, "key").format(new Date(instant));
}

/** The instant a local date begins in a zone (its first instant, where midnight falls in a gap). */
export function startOfDay(day: DayKey, timeZone: string): number {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new TZDate(year, month - 1, date, 0, 0, timeZone).getTime();
}

/** The date `days` after `day` (calendar arithmetic, no zone). */
export function addDays(day: DayKey, days: number): DayKey {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** A zone's name for people: `America/New_York` → `America/New York (GMT-5)` at that instant. */
export function zoneLabel(timeZone: string, at: number, locale: Locale): string {
  const offset = formatter(locale, timeZone, "offset")
    .formatToParts(new Date(at))
    .find((part) => part.type === "timeZoneName")?.value;
  const name = timeZone.replaceAll("_", " ");
  // UTC and its aliases say all there is to say without an offset.
  return offset && !/^(GMT|UTC)([+-]0)?$/.test(offset) ? `${name} (${offset})` : name;
}

/** The formatters of one page: its language and the visitor's zone. */
export function formatsOf(locale: Locale, timeZone: string) {
  const format = (style: Style) => {
    const made = formatter(locale, timeZone, style);
    return (instant: number | string) => made.format(new Date(instant));
  };
  return {
    locale,
    timeZone,
    time: format("time"),
    date: format("date"),
    shortDate: format("shortDate"),
    dateTime: format("dateTime"),
    month: format("month"),
    weekday: format("weekday"),
    /** The same instant's date and time in another zone (the service's). */
    dateTimeIn: (instant: number | string, zone: string) =>
      formatter(locale, zone, "dateTime").format(new Date(instant)),
    zone: (at: number = Date.now()) => zoneLabel(timeZone, at, locale),
    zoneOf: (zone: string, at: number = Date.now()) => zoneLabel(zone, at, locale),
  };
}

export type Formats = ReturnType<typeof formatsOf>;
