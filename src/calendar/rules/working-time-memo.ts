/**
 * Local dates and working spans kept for one pass over many slots (the slot calendar counts a
 * week of 5-minute slots for each person): the same answers `withinWorkingTime` computes, each
 * computed once. Profiled: time-zone conversions were ~90 % of counting a week for 20 people.
 * Keyed by the hours object itself, so it is only for objects that do not change during the pass.
 */
import type { WorkingHours } from "../../domain/schedule";
import { type Span, type WorkingCalendar, workingSpans } from "./service-rules";
import { type LocalDate, localDateOf } from "./zoned";

/** A `WorkingCalendar` that remembers what it computed (for one pass; drop it afterwards). */
export function memoizedWorkingTime(): WorkingCalendar {
  const dates = new Map<string, LocalDate>();
  const spans = new WeakMap<WorkingHours, Map<string, Span[]>>();
  return {
    dateOf(instant, timezone) {
      const key = `${timezone}|${instant}`;
      let date = dates.get(key);
      if (!date) {
        date = localDateOf(instant, timezone);
        dates.set(key, date);
      }
      return date;
    },
    spansOf(hours, date) {
      let byDate = spans.get(hours);
      if (!byDate) {
        byDate = new Map();
        spans.set(hours, byDate);
      }
      const key = `${date.year}-${date.month}-${date.day}`;
      let found = byDate.get(key);
      if (!found) {
        found = workingSpans(hours, date);
        byDate.set(key, found);
      }
      return found;
    },
  };
}
