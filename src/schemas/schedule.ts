/**
 * Working-hours schemas shared by services and providers: weekly intervals and date overrides,
 * local wall-clock time in the owner's time zone.
 */

import { findOverlap, minutesOfDay, timeOfDayPattern } from "../calendar/rules";
import { z } from "../lib/zod";
import type { Weekday } from "../types/schedule";

const TimeIntervalSchema = z
  .strictObject({
    start: z.string().regex(timeOfDayPattern, "Use HH:MM, 00:00 to 23:59.").openapi({ example: "09:00" }),
    end: z.string().regex(timeOfDayPattern, "Use HH:MM, 00:01 to 24:00.").openapi({ example: "17:00" }),
  })
  .refine((iv) => !timeOfDayPattern.test(iv.start) || iv.start !== "24:00", {
    message: "An interval cannot start at 24:00.",
    path: ["start"],
  })
  .refine((iv) => !timeOfDayPattern.test(iv.end) || minutesOfDay(iv.end) > minutesOfDay(iv.start), {
    message: "The end must be after the start (intervals do not cross midnight; use 24:00).",
    path: ["end"],
  })
  .openapi("TimeInterval");

/** The intervals of one day: at most 12, none overlapping. */
const DayIntervals = z
  .array(TimeIntervalSchema)
  .max(12)
  .superRefine((intervals, ctx) => {
    const overlapping = findOverlap(intervals);
    if (overlapping >= 0)
      ctx.addIssue({ code: "custom", message: "Intervals of a day must not overlap.", path: [overlapping] });
  });

const days: Record<Weekday, typeof DayIntervals> = {
  mon: DayIntervals,
  tue: DayIntervals,
  wed: DayIntervals,
  thu: DayIntervals,
  fri: DayIntervals,
  sat: DayIntervals,
  sun: DayIntervals,
};

export const WeeklyScheduleSchema = z
  .strictObject(days)
  .partial()
  .openapi("WeeklySchedule", {
    description: "Working intervals per weekday, local wall-clock time in the owner's time zone.",
    example: { mon: [{ start: "09:00", end: "17:00" }], tue: [{ start: "09:00", end: "12:00" }] },
  });

/** A real calendar date as `YYYY-MM-DD` (no February 30). */
const localDate = z
  .string()
  .regex(/^\d{4}-\d\d-\d\d$/, "Use YYYY-MM-DD.")
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, "Not a real date.")
  .openapi({ example: "2026-12-24" });

const DateOverrideSchema = z.strictObject({ date: localDate, intervals: DayIntervals }).openapi("DateOverride", {
  description: "The intervals of one local date, replacing its weekday's; `[]` closes the day.",
  example: { date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] },
});

export const DateOverridesSchema = z
  .array(DateOverrideSchema)
  .max(366)
  .superRefine((overrides, ctx) => {
    const seen = new Set<string>();
    overrides.forEach((o, i) => {
      if (seen.has(o.date)) ctx.addIssue({ code: "custom", message: `${o.date} is listed twice.`, path: [i, "date"] });
      seen.add(o.date);
    });
  })
  .openapi({
    description:
      "Local dates whose intervals replace the weekly ones (at most 366, dates unique). A PATCH replaces the whole list.",
    example: [
      { date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] },
      { date: "2026-12-25", intervals: [] },
    ],
  });
