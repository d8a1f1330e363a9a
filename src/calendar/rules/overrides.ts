/**
 * Date overrides: for a local date in the owner's time zone, a list of intervals that replaces
 * that weekday's weekly intervals (an empty list closes the day).
 */
import type { DateOverride, TimeInterval, WorkingHours } from "../../types/schedule.ts";
import { intervalsOf, minutesOfDay } from "./schedule.ts";
import { type LocalDate, weekdayOf } from "./zoned.ts";

/** `YYYY-MM-DD` of a local date. */
export function dateKey(date: LocalDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Lookups built once per overrides list: a calendar asks for many dates of the same list. */
const indexes = new WeakMap<readonly DateOverride[], Map<string, TimeInterval[]>>();

/** The intervals that replace `date`'s weekly intervals, or undefined when the date has no override. */
export function overrideFor(
  overrides: readonly DateOverride[] | undefined,
  date: LocalDate,
): TimeInterval[] | undefined {
  if (!overrides || overrides.length === 0) return undefined;
  let index = indexes.get(overrides);
  if (!index) {
    index = new Map(overrides.map((o) => [o.date, o.intervals]));
    indexes.set(overrides, index);
  }
  return index.get(dateKey(date));
}

/** The working intervals of a local date in minutes, sorted: the override if there is one, else the weekday's. */
export function intervalsOn(hours: WorkingHours, date: LocalDate): { start: number; end: number }[] {
  const override = overrideFor(hours.dateOverrides, date);
  if (!override) return intervalsOf(hours.weeklySchedule, weekdayOf(date));
  return override
    .map((iv) => ({ start: minutesOfDay(iv.start), end: minutesOfDay(iv.end) }))
    .sort((a, b) => a.start - b.start);
}
