/**
 * Booking limits as pure functions (docs/api-behaviour.md, "Booking limits and assignment"): the
 * calendar day and the ISO week (Monday 00:00 to the next Monday 00:00) a booking's start falls
 * in, in a time zone, and whether the bookings already there leave room for one more. The
 * calendars count; these decide.
 */
import type { ClaimRefusal } from "../claim-types";
import { weekdays } from "../rules/schedule";
import type { Span } from "../rules/service-rules";
import { addLocalDays, dateAt, dayStart } from "../rules/zoned";

/** Limits per day and per week (absent or null: none). */
export type PeriodLimits = { perDay?: number | null; perWeek?: number | null };

/** The calendar day of `instant` in `timezone`, as the span of instants it covers. */
export function dayOf(instant: number, timezone: string): Span {
  const date = dateAt(instant, timezone);
  return { start: dayStart(date, timezone), end: dayStart(addLocalDays(date, 1), timezone) };
}

/** The ISO week of `instant` in `timezone` (from its Monday's start to the next Monday's). */
export function weekOf(instant: number, timezone: string): Span {
  const date = dateAt(instant, timezone);
  const monday = addLocalDays(date, -((weekdays.indexOf(date.weekday) + 6) % 7));
  return { start: dayStart(monday, timezone), end: dayStart(addLocalDays(monday, 7), timezone) };
}

/** Every day (in `timezone`) that an instant of `[from, to)` falls on, in order. */
export function daysOver(from: number, to: number, timezone: string): Span[] {
  const days: Span[] = [];
  for (let day = dayOf(from, timezone); day.start < to; day = dayOf(day.end, timezone)) days.push(day);
  return days;
}

/** Every ISO week (in `timezone`) that an instant of `[from, to)` falls in, in order. */
export function weeksOver(from: number, to: number, timezone: string): Span[] {
  const weeks: Span[] = [];
  for (let week = weekOf(from, timezone); week.start < to; week = weekOf(week.end, timezone)) weeks.push(week);
  return weeks;
}

/** Whether one more booking fits beside `count` already counted under `limit` (none: always). */
export const roomFor = (limit: number | null | undefined, count: number) => limit == null || count < limit;

/** Which of a service's limits the bookings already starting in the day and the week leave no room under. */
export function periodReached(limits: PeriodLimits | undefined, counted: { day: number; week: number }) {
  if (!roomFor(limits?.perDay, counted.day)) return "perDay" as const;
  if (!roomFor(limits?.perWeek, counted.week)) return "perWeek" as const;
  return null;
}

/** The refusal of a booking over a limit: `what` says which. */
export const limitReached = (what: string): ClaimRefusal => ({ ok: false, reason: "limit_reached", detail: what });

/** The refusal details, one per limit. */
export const limitDetails = {
  perDay: (limit: number) => `The service takes at most ${limit} booking(s) a day, and this day has them.`,
  perWeek: (limit: number) => `The service takes at most ${limit} booking(s) a week, and this week has them.`,
  customer: (limit: number) =>
    `This customer has ${limit} upcoming booking(s) of the service already, the most it allows.`,
  provider: (limit: number) => `The provider takes at most ${limit} booking(s) a day, and this day has them.`,
};
