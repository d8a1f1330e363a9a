/**
 * The slot calendar's remembered working time (working-time-memo.ts) answers exactly what
 * `withinWorkingTime` computes each time: one memo used for a whole run of random hours, date
 * overrides, time zones with DST changes (also half-hour ones) and spans around them; and its
 * local dates, remembered as whole days, are each instant's, also on the days clocks change
 * at midnight.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withinWorkingTime, workingSpans } from "../../src/calendar/rules/service-rules";
import { memoizedWorkingTime } from "../../src/calendar/rules/working-time-memo";
import { addLocalDays, localDateOf } from "../../src/calendar/rules/zoned";
import type { WeeklySchedule } from "../../src/types/schedule";
import { hhmm } from "./fixtures";

const MINUTE = 60_000;
const zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "America/Santiago"];
/** Around the DST changes of 2026–2027 in these zones. */
const from = Date.UTC(2026, 2, 1);
const to = Date.UTC(2027, 11, 31);

/** Up to three sorted, non-overlapping intervals on a 30-minute grid; 24:00 may end the last. */
const day = fc.uniqueArray(fc.integer({ min: 0, max: 48 }), { minLength: 0, maxLength: 6 }).map((marks) => {
  const sorted = [...marks].sort((a, b) => a - b);
  const intervals = [];
  for (let i = 0; i + 1 < sorted.length; i += 2) {
    intervals.push({ start: hhmm((sorted[i] as number) * 30), end: hhmm((sorted[i + 1] as number) * 30) });
  }
  return intervals;
});

const hours = fc.record({
  timezone: fc.constantFrom(...zones),
  weeklySchedule: fc.record({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }),
  dateOverrides: fc
    .array(
      fc.record({
        date: fc
          .integer({ min: 0, max: 60 })
          .map((d) => new Date(Date.UTC(2026, 2, 20) + d * 86_400_000).toISOString().slice(0, 10)),
        intervals: day,
      }),
      { maxLength: 3 },
    )
    .map((overrides) => [...new Map(overrides.map((o) => [o.date, o])).values()]),
});

const span = fc.tuple(
  fc.integer({ min: from / (15 * MINUTE), max: to / (15 * MINUTE) }).map((q) => q * 15 * MINUTE),
  fc.constantFrom(15, 30, 60, 90, 240, 1440).map((m) => m * MINUTE),
);

describe("remembered working time", () => {
  it("answers what withinWorkingTime computes, for any hours, zone and span, with one memo throughout", () => {
    const memo = memoizedWorkingTime();
    fc.assert(
      fc.property(hours, fc.array(span, { minLength: 1, maxLength: 40 }), (h, spans) => {
        const rules = h as { timezone: string; weeklySchedule: WeeklySchedule; dateOverrides: never[] };
        for (const [start, length] of spans) {
          const direct = withinWorkingTime(rules, start, start + length);
          expect(withinWorkingTime(rules, start, start + length, undefined, memo), new Date(start).toISOString()).toBe(
            direct,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Zones whose clocks change at or around local midnight, or by half an hour, in 2026–2027. */
const midnightZones = [
  "America/Santiago",
  "America/Havana",
  "Asia/Beirut",
  "America/Asuncion",
  "Africa/Cairo",
  "America/Scoresbysund",
  "Australia/Lord_Howe",
  "Europe/Berlin",
  "Pacific/Chatham",
];

describe("remembered local dates", () => {
  it("are each instant's own, for passes forward and backward through every 30 minutes of two years", () => {
    const step = 30 * MINUTE;
    const forward = Array.from({ length: (to - from) / step }, (_, i) => from + i * step);
    // Backward, a day's range is learnt before a repeated hour that ends the date before it.
    for (const pass of [forward, [...forward].reverse()]) {
      for (const zone of midnightZones) {
        const memo = memoizedWorkingTime();
        for (const instant of pass) {
          const { year, month, day } = localDateOf(instant, zone);
          const remembered = memo.dateOf(instant, zone);
          if (remembered.year !== year || remembered.month !== month || remembered.day !== day) {
            expect(remembered, `${zone} ${new Date(instant).toISOString()}`).toMatchObject({ year, month, day });
          }
        }
      }
    }
  });

  it("are each instant's own in any order, with one memo for every zone", () => {
    const memo = memoizedWorkingTime();
    const instant = fc.integer({ min: from / MINUTE, max: to / MINUTE }).map((m) => m * MINUTE);
    fc.assert(
      fc.property(fc.constantFrom(...midnightZones, ...zones), instant, (zone, at) => {
        const { year, month, day } = localDateOf(at, zone);
        expect(memo.dateOf(at, zone), `${zone} ${new Date(at).toISOString()}`).toEqual({
          year,
          month,
          day,
          weekday: localDateOf(at, zone).weekday,
        });
      }),
      { numRuns: 3_000 },
    );
  });

  it("give each date's working spans as converting them does, on every date of two years", () => {
    const allDay = [{ start: "00:00", end: "24:00" }];
    const split = [
      { start: "00:00", end: "01:00" },
      { start: "01:30", end: "03:00" },
      { start: "22:30", end: "24:00" },
    ];
    const week = (d: typeof allDay) => ({ mon: d, tue: d, wed: d, thu: d, fri: d, sat: d, sun: split });
    for (const zone of midnightZones) {
      const memo = memoizedWorkingTime();
      const hours = { timezone: zone, weeklySchedule: week(allDay), dateOverrides: [] };
      for (let date = { year: 2026, month: 1, day: 1 }, i = 0; i < 730; date = addLocalDays(date, 1), i++) {
        expect(memo.spansOf(hours, date), `${zone} ${JSON.stringify(date)}`).toEqual(workingSpans(hours, date));
      }
    }
  });
});
