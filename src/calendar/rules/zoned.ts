/**
 * Wall-clock ↔ instant conversion in IANA time zones, DST-correct via @date-fns/tz.
 * A wall time inside a spring-forward gap moves forward by the gap; one inside the repeated
 * fall-back hour resolves to its later (standard-time) instant, except midnight, which is the
 * first instant of its date; one in a gap that runs past midnight is the next date's first instant.
 * Relative imports carry `.ts` so Node scripts (the demo seed) can import this file directly.
 */
import { TZDate } from "@date-fns/tz";
import type { Weekday } from "../../types/schedule.ts";
import { weekdays } from "./schedule.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A calendar date in some time zone; `month` is 1–12. */
export type LocalDate = { year: number; month: number; day: number };

/** The local calendar date and weekday of an instant in `timezone`. */
export function localDateOf(instantMs: number, timezone: string): LocalDate & { weekday: Weekday } {
  const zoned = new TZDate(instantMs, timezone);
  return {
    year: zoned.getFullYear(),
    month: zoned.getMonth() + 1,
    day: zoned.getDate(),
    weekday: weekdays[zoned.getDay()] as Weekday,
  };
}

/**
 * The instant of `minutes` past local midnight of `date` in `timezone`. Midnight (0) is when the
 * date begins and 1440 when the next one begins: where midnight repeats, its first copy, so a
 * day's intervals never reach into the next local date.
 */
export function instantOf(date: LocalDate, minutes: number, timezone: string): number {
  if (minutes === 1440) return instantOf(addLocalDays(date, 1), 0, timezone);
  const guess = new TZDate(date.year, date.month - 1, date.day, 0, minutes, timezone);
  // In a repeated fall-back hour the library's pick depends on the zone's side of UTC; other
  // instants hours apart showing the same wall time are the other copy.
  const shift =
    (new TZDate(guess.getTime() + 3 * HOUR, timezone).getTimezoneOffset() -
      new TZDate(guess.getTime() - 3 * HOUR, timezone).getTimezoneOffset()) *
    MINUTE;
  const copies = [guess.getTime()];
  if (shift > 0) {
    for (const other of [guess.getTime() - shift, guess.getTime() + shift]) {
      const zoned = new TZDate(other, timezone);
      const same = zoned.getDate() === guess.getDate() && zoned.getHours() === guess.getHours();
      if (same && zoned.getMinutes() === guess.getMinutes()) copies.push(other);
    }
  }
  const instant = minutes === 0 ? Math.min(...copies) : Math.max(...copies);
  // A wall time in a gap that ends the date (clocks jumping from before midnight into the next
  // date, as America/Scoresbysund's 23:00 → 00:00) moves past midnight; the date ends there.
  if (minutes > 0 && new TZDate(instant, timezone).getDate() !== date.day) {
    return instantOf(addLocalDays(date, 1), 0, timezone);
  }
  return instant;
}

/** The weekday of a local date (independent of any time zone). */
export function weekdayOf(date: LocalDate): Weekday {
  return weekdays[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()] as Weekday;
}

/** The local date `days` after `date`. */
export function addLocalDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Orders local dates: negative, zero or positive. */
export function compareDates(a: LocalDate, b: LocalDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/*
 * Local dates of time zones as spans of instants, kept for the isolate's life: when each date
 * begins (`dayStart`), so the local date of an instant, a date's working spans and a day's or
 * a week's bounds are a few map reads instead of `Intl` conversions. Profiled, the slot calendar
 * of one day spent a sixth of its time converting the same dates' midnights again on every
 * request (docs/performance.md, "The slot calendar of one day, profiled"). A zone's rules do
 * not change while an isolate lives, so what is kept stays right; at most MAX_KEPT dates are
 * kept, the oldest dropped first.
 */
const DAY = 86_400_000;
/** Dates kept (about 40 bytes each): 22 years of one zone, or a month of 260 zones. */
const MAX_KEPT = 8_192;
const starts = new Map<string, number>();

const keyOf = (date: LocalDate, timezone: string) => `${timezone}|${date.year * 10_000 + date.month * 100 + date.day}`;

/** The first instant of `date` in `timezone` (`instantOf(date, 0, timezone)`), remembered. */
export function dayStart(date: LocalDate, timezone: string): number {
  const key = keyOf(date, timezone);
  let start = starts.get(key);
  if (start === undefined) {
    start = instantOf(date, 0, timezone);
    if (starts.size >= MAX_KEPT) starts.delete(starts.keys().next().value as string);
    starts.set(key, start);
  }
  return start;
}

/**
 * The local date (and weekday) of an instant in `timezone`: the date whose span holds it. Every
 * zone's offset is under a day, so it is the instant's UTC date or one beside it.
 */
export function dateAt(instant: number, timezone: string): ReturnType<typeof localDateOf> {
  const utc = new Date(instant);
  const near = { year: utc.getUTCFullYear(), month: utc.getUTCMonth() + 1, day: utc.getUTCDate() };
  for (const shift of [0, -1, 1]) {
    const date = shift === 0 ? near : addLocalDays(near, shift);
    if (dayStart(date, timezone) <= instant && instant < dayStart(addLocalDays(date, 1), timezone)) {
      return { ...date, weekday: weekdayOf(date) };
    }
  }
  return localDateOf(instant, timezone);
}

/**
 * The midnight of a date that lasts exactly 24 hours, or null for one with a clock change: on a
 * 24-hour date every local minute m is midnight + m minutes (a date with one offset change is
 * shorter or longer).
 */
export function plainMidnight(date: LocalDate, timezone: string): number | null {
  const start = dayStart(date, timezone);
  return dayStart(addLocalDays(date, 1), timezone) - start === DAY ? start : null;
}
