/**
 * Local dates of time zones as spans of instants, kept for the isolate's life: when each date
 * begins (`dayStart`), so the local date of an instant, a date's working spans and a day's or
 * a week's bounds are a few map reads instead of `Intl` conversions. Profiled, the slot calendar
 * of one day spent a sixth of its time converting the same dates' midnights again on every
 * request (docs/performance.md, "The slot calendar of one day, profiled"). A zone's rules do
 * not change while an isolate lives, so what is kept stays right; at most MAX_KEPT dates are
 * kept, the oldest dropped first.
 */
import { addDays, instantOf, type LocalDate, localDateOf, weekdayOf } from "./zoned";

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
    const date = shift === 0 ? near : addDays(near, shift);
    if (dayStart(date, timezone) <= instant && instant < dayStart(addDays(date, 1), timezone)) {
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
  return dayStart(addDays(date, 1), timezone) - start === DAY ? start : null;
}
