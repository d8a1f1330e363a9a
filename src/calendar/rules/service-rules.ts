/**
 * The availability rules of a service as pure functions (docs/api-behaviour.md, "Availability
 * rules"). The calendar Durable Object calls them inside its critical section, so none of them
 * does I/O or awaits.
 */

import { LAST_INSTANT } from "../../lib/datetime";
import type { DateOverride, WeeklySchedule, WorkingHours } from "../../types/schedule";
import { intervalsOn } from "./overrides";
import { addLocalDays, compareDates, dateAt, instantOf, type LocalDate, plainMidnight } from "./zoned";

const MINUTE = 60_000;
const DAY = 86_400_000;

/** What the rules need to know of a service. */
export type ServiceRules = {
  durationMinutes: number;
  capacity: number;
  slotIntervalMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minNoticeMinutes: number;
  maxAdvanceDays: number;
  timezone: string;
  weeklySchedule: WeeklySchedule;
  /** Local dates whose intervals replace the weekday's. */
  dateOverrides?: readonly DateOverride[];
};

/** A broken rule. `invalid` is the client's input (422); `unavailable` is the calendar's state (409). */
export type RuleViolation =
  | {
      kind: "invalid";
      field: "startTime" | "endTime";
      reason: "end_not_after_start" | "wrong_duration" | "in_the_past" | "too_soon" | "too_far_ahead";
      detail: string;
    }
  | { kind: "unavailable"; reason: "outside_working_hours" | "fully_booked"; detail: string };

/** A half-open span of time `[start, end)` in epoch milliseconds. */
export type Span = { start: number; end: number };

/** Rules 2 and 3: duration, then notice and horizon relative to `now`. */
export function checkTiming(rules: ServiceRules, start: number, end: number, now: number): RuleViolation | null {
  if (end <= start) {
    return {
      kind: "invalid",
      field: "endTime",
      reason: "end_not_after_start",
      detail: "endTime must be after startTime.",
    };
  }
  if (end - start !== rules.durationMinutes * MINUTE) {
    return {
      kind: "invalid",
      field: "endTime",
      reason: "wrong_duration",
      detail: `The service lasts ${rules.durationMinutes} minutes: endTime must be startTime + ${rules.durationMinutes} minutes.`,
    };
  }
  if (start < now) {
    return { kind: "invalid", field: "startTime", reason: "in_the_past", detail: "startTime is in the past." };
  }
  if (start < now + rules.minNoticeMinutes * MINUTE) {
    return {
      kind: "invalid",
      field: "startTime",
      reason: "too_soon",
      detail: `Book at least ${rules.minNoticeMinutes} minutes ahead.`,
    };
  }
  if (start > now + rules.maxAdvanceDays * DAY) {
    return {
      kind: "invalid",
      field: "startTime",
      reason: "too_far_ahead",
      detail: `Book at most ${rules.maxAdvanceDays} days ahead.`,
    };
  }
  return null;
}

/**
 * The working intervals of one local date as instants (its date override, if any, else its
 * weekday's): on a 24-hour date, minutes past its remembered midnight (zoned.ts `plainMidnight`); on a date
 * with a clock change, each converted.
 */
export function workingSpans(rules: WorkingHours, date: LocalDate): Span[] {
  const midnight = plainMidnight(date, rules.timezone);
  return intervalsOn(rules, date).map((iv) =>
    midnight === null
      ? { start: instantOf(date, iv.start, rules.timezone), end: instantOf(date, iv.end, rules.timezone) }
      : { start: midnight + iv.start * MINUTE, end: midnight + iv.end * MINUTE },
  );
}

/**
 * Where local dates and working spans come from: computed each time (`direct`), or kept for a
 * pass over many slots (`memoizedWorkingTime` in working-time-memo.ts). Time zones make both
 * costly: each is a few `Intl` conversions.
 */
export type WorkingCalendar = {
  dateOf(instant: number, timezone: string): LocalDate;
  spansOf(hours: WorkingHours, date: LocalDate): Span[];
};

const direct: WorkingCalendar = { dateOf: dateAt, spansOf: workingSpans };

/** Local dates a chain of touching intervals may be followed into: a booking lasts at most a day. */
const MAX_CHAIN_DAYS = 3;

/**
 * Where working time that continues from `span` (an interval of `date`) ends, followed no
 * further than `needed`: an interval that starts where the previous one ends joins it, within a
 * day and across local midnight (a person working 00:00–24:00 every day works through midnight).
 */
export function continuousEnd(
  hours: WorkingHours,
  date: LocalDate,
  span: Span,
  needed: number,
  calendar: WorkingCalendar = direct,
): number {
  let end = span.end;
  for (let day = date, hops = 0; end < needed && hops < MAX_CHAIN_DAYS; day = addLocalDays(day, 1), hops++) {
    // A day's intervals come sorted by start, so one pass follows a chain through the day.
    for (const next of calendar.spansOf(hours, day)) if (next.start === end) end = next.end;
  }
  return end;
}

/**
 * Whether `[start, end)` is working time: it starts inside an interval of its local day and ends
 * before the working time continuing from that interval ends (touching intervals join).
 * With `step`, the start must also sit on that interval's grid (counted from its start).
 */
export function withinWorkingTime(
  hours: WorkingHours,
  start: number,
  end: number,
  step?: number,
  calendar: WorkingCalendar = direct,
): boolean {
  const date = calendar.dateOf(start, hours.timezone);
  for (const span of calendar.spansOf(hours, date)) {
    if (start < span.start || start >= span.end) continue;
    if (step !== undefined && (start - span.start) % step !== 0) continue;
    if (end <= continuousEnd(hours, date, span, end, calendar)) return true;
  }
  return false;
}

/**
 * Rule 4: the start lies in one working interval of its local day, on the slot grid counted
 * from that interval's start, and the booking ends within the working time continuing from
 * there (intervals that touch, also at local midnight, join).
 */
export function checkWorkingHours(rules: ServiceRules, start: number): RuleViolation | null {
  const end = start + rules.durationMinutes * MINUTE;
  if (withinWorkingTime(rules, start, end, rules.slotIntervalMinutes * MINUTE)) return null;
  return {
    kind: "unavailable",
    reason: "outside_working_hours",
    detail: "The requested time is not a bookable slot of this service's working hours.",
  };
}

/** Rules 2–4 in order; rule 5 (capacity) needs the calendar's reservations. */
export function checkRequest(rules: ServiceRules, start: number, end: number, now: number): RuleViolation | null {
  return checkTiming(rules, start, end, now) ?? checkWorkingHours(rules, start);
}

/** The time a booking blocks: the booking widened by the service's buffers. */
export function blockedSpan(rules: ServiceRules, start: number, end: number): Span {
  return { start: start - rules.bufferBeforeMinutes * MINUTE, end: end + rules.bufferAfterMinutes * MINUTE };
}

/** Rule 5: with `overlapping` active bookings overlapping the blocked span, is a seat left? */
export function checkCapacity(rules: ServiceRules, overlapping: number): RuleViolation | null {
  if (overlapping < rules.capacity) return null;
  return { kind: "unavailable", reason: "fully_booked", detail: "This slot is fully booked." };
}

/**
 * Every slot of the working hours that starts in `[from, to)`, in order, each once; none that
 * ends after LAST_INSTANT (its end could not be written). With `limit`,
 * stops as soon as more than `limit` slots are found (the result then holds `limit + 1`), so a
 * caller can refuse a range without generating all of it.
 */
export function slotsBetween(rules: ServiceRules, from: number, to: number, limit = Number.POSITIVE_INFINITY): Span[] {
  const duration = rules.durationMinutes * MINUTE;
  const step = rules.slotIntervalMinutes * MINUTE;
  // Keyed by start: an interval ending in a spring-forward gap ends after the gap, so it can
  // overlap the next interval of the day and reach the same start.
  const slots = new Map<number, Span>();
  const last = dateAt(to, rules.timezone);
  // Start a day early: a local day that began before `from` can still hold slots after it.
  for (
    let date = addLocalDays(dateAt(from, rules.timezone), -1);
    compareDates(date, last) <= 0 && slots.size <= limit;
    date = addLocalDays(date, 1)
  ) {
    for (const span of workingSpans(rules, date)) {
      const reach = continuousEnd(rules, date, span, span.end + duration);
      for (
        let start = span.start;
        start < span.end && start + duration <= reach && slots.size <= limit;
        start += step
      ) {
        if (start >= from && start < to && start + duration <= LAST_INSTANT) {
          slots.set(start, { start, end: start + duration });
        }
      }
    }
  }
  return [...slots.values()].sort((a, b) => a.start - b.start);
}

/**
 * The first slot start past `max` slots of the service's working hours in `[from, to)`, or
 * undefined when the range holds at most `max`: a caller refuses an oversized range without
 * asking any calendar.
 */
export function slotBeyond(rules: ServiceRules, from: number, to: number, max: number): number | undefined {
  return slotsBetween(rules, from, to, max)[max]?.start;
}

/** Each segment's `[start, end)`: the first at the visit's start, each next where the previous ends. */
export function segmentTimes(startTime: string, segments: readonly { service: { durationMinutes: number } }[]): Span[] {
  let start = Date.parse(startTime);
  return segments.map(({ service }) => {
    const time = { start, end: start + service.durationMinutes * MINUTE };
    start = time.end;
    return time;
  });
}
