/**
 * Local dates and working spans kept for one pass over many slots (the slot calendar counts a
 * week of 5-minute slots for each person): the same answers `withinWorkingTime` computes, with
 * as few time-zone conversions as the pass allows. Profiled: conversions were ~90 % of counting a
 * week for 20 people, then, remembered per instant and per person, still half of it.
 *
 * A date of exactly 24 hours has no offset change in it (one change makes it shorter or longer):
 * every instant from its midnight to the next is on it, and its local minute m is midnight + m
 * minutes. So a pass converts two midnights per date and zone, and works out the rest; a date
 * with a DST change is converted instant by instant, as without the memo.
 * Spans are keyed by the hours object itself, so it is only for objects that do not change
 * during the pass.
 */
import type { WorkingHours } from "../../types/schedule";
import { intervalsOn } from "./overrides";
import { type Span, type WorkingCalendar, workingSpans } from "./service-rules";
import type { LocalDate } from "./zoned";
import { dateAt, plainMidnight as rememberedMidnight } from "./zoned";

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

const dateKey = (date: LocalDate) => date.year * 10_000 + date.month * 100 + date.day;

/** A `WorkingCalendar` that remembers what it computed (for one pass; drop it afterwards). */
export function memoizedWorkingTime(): WorkingCalendar {
  /** Per zone and date: its midnight if the date has 24 hours, else null. */
  const midnights = new Map<string, number | null>();
  /** Per zone, the 24-hour dates met so far with the instants they span. */
  const days = new Map<string, { start: number; end: number; date: LocalDate }[]>();
  /** Local dates of instants on dates with a DST change. */
  const dates = new Map<string, LocalDate>();
  const spans = new WeakMap<WorkingHours, Map<number, Span[]>>();

  const plainMidnight = (date: LocalDate, timezone: string): number | null => {
    const key = `${timezone}|${dateKey(date)}`;
    let midnight = midnights.get(key);
    if (midnight === undefined) {
      midnight = rememberedMidnight(date, timezone);
      midnights.set(key, midnight);
    }
    return midnight;
  };

  return {
    dateOf(instant, timezone) {
      let known = days.get(timezone);
      if (!known) {
        known = [];
        days.set(timezone, known);
      }
      // A pass moves forward through time: the date found last is the likeliest.
      for (let i = known.length - 1; i >= 0; i--) {
        const day = known[i] as { start: number; end: number; date: LocalDate };
        if (instant >= day.start && instant < day.end) return day.date;
      }
      const key = `${timezone}|${instant}`;
      let date = dates.get(key);
      if (date) return date;
      date = dateAt(instant, timezone);
      const midnight = plainMidnight(date, timezone);
      if (midnight !== null) known.push({ start: midnight, end: midnight + DAY, date });
      else dates.set(key, date);
      return date;
    },
    spansOf(hours, date) {
      let byDate = spans.get(hours);
      if (!byDate) {
        byDate = new Map();
        spans.set(hours, byDate);
      }
      const key = dateKey(date);
      let found = byDate.get(key);
      if (!found) {
        const midnight = plainMidnight(date, hours.timezone);
        found =
          midnight === null
            ? workingSpans(hours, date)
            : intervalsOn(hours, date).map((iv) => ({
                start: midnight + iv.start * MINUTE,
                end: midnight + iv.end * MINUTE,
              }));
        byDate.set(key, found);
      }
      return found;
    },
  };
}
