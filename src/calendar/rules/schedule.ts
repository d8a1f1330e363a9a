/**
 * Weekly schedules: working intervals per weekday as local wall-clock "HH:MM" strings in the
 * service's time zone. "24:00" is allowed as an end, meaning the following midnight.
 */
import type { TimeInterval, Weekday, WeeklySchedule } from "../../types/schedule.ts";

export const weekdays: readonly Weekday[] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

export const timeOfDayPattern = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Minutes since local midnight of an "HH:MM" string. */
export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h as number) * 60 + (m as number);
}

/** Index of the first interval that overlaps one before it (after sorting by start), or -1. */
export function findOverlap(intervals: readonly TimeInterval[]): number {
  const sorted = intervals
    .map((iv, index) => ({ start: minutesOfDay(iv.start), end: minutesOfDay(iv.end), index }))
    .sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i] as { start: number }).start < (sorted[i - 1] as { end: number }).end) {
      return (sorted[i] as { index: number }).index;
    }
  }
  return -1;
}

/** The intervals of a weekday in minutes, sorted by start. */
export function intervalsOf(schedule: WeeklySchedule, day: Weekday): { start: number; end: number }[] {
  return (schedule[day] ?? [])
    .map((iv) => ({ start: minutesOfDay(iv.start), end: minutesOfDay(iv.end) }))
    .sort((a, b) => a.start - b.start);
}

/** Whether the runtime knows `tz` as an IANA time zone name. */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
