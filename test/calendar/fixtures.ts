/** Small helpers shared by the calendar unit tests. */

import type { ServiceRules, Span } from "../../src/calendar/rules/service-rules";
import type { TimeInterval, WeeklySchedule } from "../../src/types/schedule";

/** Epoch milliseconds of an ISO 8601 instant (must carry `Z`). */
export const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`);
  return ms;
};

/** An instant as an ISO string without milliseconds, e.g. `2026-06-01T09:00:00Z`. */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

/** Slot starts as ISO strings, for readable assertions. */
export const starts = (spans: readonly Span[]): string[] => spans.map((s) => iso(s.start));

/** The same intervals on all seven weekdays. */
export const everyDay = (...intervals: TimeInterval[]): WeeklySchedule => ({
  mon: intervals,
  tue: intervals,
  wed: intervals,
  thu: intervals,
  fri: intervals,
  sat: intervals,
  sun: intervals,
});

/** A UTC service: 30-minute appointments every 30 minutes, Mon–Fri 09:00–17:00, no buffers. */
export const rules = (overrides: Partial<ServiceRules> = {}): ServiceRules => ({
  durationMinutes: 30,
  capacity: 1,
  slotIntervalMinutes: 30,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minNoticeMinutes: 0,
  maxAdvanceDays: 365,
  timezone: "UTC",
  weeklySchedule: {
    mon: [{ start: "09:00", end: "17:00" }],
    tue: [{ start: "09:00", end: "17:00" }],
    wed: [{ start: "09:00", end: "17:00" }],
    thu: [{ start: "09:00", end: "17:00" }],
    fri: [{ start: "09:00", end: "17:00" }],
  },
  ...overrides,
});

/** Minutes after midnight as `HH:MM`. */
export const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
