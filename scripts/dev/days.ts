/**
 * When the demo's appointments are: the first two dates at least two days ahead (so every demo
 * start is more than 24 h away) that are a Monday, Wednesday or Friday, days every demo service
 * works on (scripts/lib/demo.ts), whatever day `npm run dev` runs.
 */
import { addLocalDays, instantOf, type LocalDate, localDateOf, weekdayOf } from "../../src/calendar/rules/zoned.ts";
import { DEMO_TIMEZONE } from "../lib/demo.ts";

/** The two demo days, in the demo business's zone. */
export function demoDays(): LocalDate[] {
  const days: LocalDate[] = [];
  for (
    let date = addLocalDays(localDateOf(Date.now(), DEMO_TIMEZONE), 2);
    days.length < 2;
    date = addLocalDays(date, 1)
  ) {
    if (["mon", "wed", "fri"].includes(weekdayOf(date))) days.push(date);
  }
  return days;
}

/** A wall-clock time ("11:00") on a local date in `timezone`, as an instant. */
export function wallClock(date: LocalDate, time: string, timezone: string): Date {
  const [hour = 0, minute = 0] = time.split(":").map(Number);
  return new Date(instantOf(date, hour * 60 + minute, timezone));
}
