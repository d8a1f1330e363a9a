/**
 * Date overrides in the pure rules: an override day uses only its own intervals, `[]` closes
 * it, and the slot calendar and the booking check agree on every day, DST days included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateKey, overrideFor } from "../../src/calendar/rules/overrides";
import {
  checkWorkingHours,
  type ServiceRules,
  type Span,
  slotsBetween,
  workingSpans,
} from "../../src/calendar/rules/service-rules";
import { localDateOf } from "../../src/calendar/rules/zoned";
import type { DateOverride, TimeInterval, Weekday } from "../../src/types/schedule";
import { at, everyDay, hhmm, rules, starts } from "./fixtures";

describe("overrideFor", () => {
  const overrides: DateOverride[] = [
    { date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] },
    { date: "2026-12-25", intervals: [] },
  ];

  it("finds a date's override and nothing for other dates", () => {
    expect(overrideFor(overrides, { year: 2026, month: 12, day: 24 })).toEqual([{ start: "09:00", end: "13:00" }]);
    expect(overrideFor(overrides, { year: 2026, month: 12, day: 25 })).toEqual([]);
    expect(overrideFor(overrides, { year: 2026, month: 12, day: 26 })).toBeUndefined();
    expect(overrideFor(undefined, { year: 2026, month: 12, day: 24 })).toBeUndefined();
  });

  it("spells dates with zero padding", () => {
    expect(dateKey({ year: 2027, month: 1, day: 5 })).toBe("2027-01-05");
  });
});

describe("workingSpans and slotsBetween with overrides", () => {
  // 2026-12-24 is a Thursday, 2026-12-25 a Friday.
  const service = rules({
    weeklySchedule: everyDay({ start: "09:00", end: "17:00" }),
    dateOverrides: [
      { date: "2026-12-24", intervals: [{ start: "09:00", end: "10:00" }] },
      { date: "2026-12-25", intervals: [] },
      // A Saturday override opens a day the weekly schedule might not have.
      { date: "2026-12-26", intervals: [{ start: "20:00", end: "21:00" }] },
    ],
  });

  it("replaces the weekday's intervals on an override day, closes a day with [], opens a day with its own", () => {
    const slots = starts(slotsBetween(service, at("2026-12-24T00:00:00Z"), at("2026-12-27T00:00:00Z")));
    expect(slots).toEqual([
      "2026-12-24T09:00:00Z",
      "2026-12-24T09:30:00Z",
      "2026-12-26T20:00:00Z",
      "2026-12-26T20:30:00Z",
    ]);
  });

  it("refuses a weekly slot on an override day and accepts the override's own", () => {
    expect(checkWorkingHours(service, at("2026-12-24T15:00:00Z"))?.reason).toBe("outside_working_hours");
    expect(checkWorkingHours(service, at("2026-12-25T09:00:00Z"))?.reason).toBe("outside_working_hours");
    expect(checkWorkingHours(service, at("2026-12-26T20:30:00Z"))).toBeNull();
    expect(checkWorkingHours(service, at("2026-12-23T15:00:00Z"))).toBeNull();
  });

  it("reads the override's date in the owner's time zone", () => {
    const tokyo = { ...service, timezone: "Asia/Tokyo" };
    // 09:00 on 24 December in Tokyo is 00:00Z.
    expect(workingSpans(tokyo, { year: 2026, month: 12, day: 24 })).toEqual([
      { start: at("2026-12-24T00:00:00Z"), end: at("2026-12-24T01:00:00Z") },
    ]);
  });
});

// --- property: slots and the booking check agree, override days use only override intervals ---

const weekdayKeys: Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
/** Up to three non-overlapping intervals on a 15-minute grid, ending by 23:45. */
const dayIntervals: fc.Arbitrary<TimeInterval[]> = fc
  .uniqueArray(fc.integer({ min: 0, max: 95 }), { minLength: 0, maxLength: 6 })
  .map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b);
    const intervals: TimeInterval[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) {
      intervals.push({ start: hhmm((sorted[i] as number) * 15), end: hhmm((sorted[i + 1] as number) * 15) });
    }
    return intervals;
  });

/** The four DST change days of 2026 in the two zones (all Sundays), and a plain day. */
const dstDays = ["2026-03-08", "2026-03-29", "2026-10-25", "2026-11-01", "2026-06-14"];

const arbitraryRules: fc.Arbitrary<ServiceRules> = fc
  .record({
    timezone: fc.constantFrom("Europe/Berlin", "America/New_York"),
    week: fc.tuple(...weekdayKeys.map(() => dayIntervals)),
    overrideDays: fc.uniqueArray(fc.constantFrom(...dstDays, "2026-03-07", "2026-10-24", "2026-11-02"), {
      maxLength: 5,
    }),
    overrideIntervals: fc.array(dayIntervals, { minLength: 5, maxLength: 5 }),
    durationMinutes: fc.constantFrom(15, 30, 45, 60),
    slotIntervalMinutes: fc.constantFrom(15, 30, 60),
  })
  .map(({ timezone, week, overrideDays, overrideIntervals, durationMinutes, slotIntervalMinutes }) =>
    rules({
      timezone,
      durationMinutes,
      slotIntervalMinutes,
      weeklySchedule: Object.fromEntries(weekdayKeys.map((day, i) => [day, week[i]])),
      dateOverrides: overrideDays.map((date, i) => ({ date, intervals: overrideIntervals[i] as TimeInterval[] })),
    }),
  );

/** Spans sorted by start, each run of touching (or overlapping) spans as one. */
function joined(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

describe("property: overrides across DST days in two time zones", () => {
  it("every listed slot passes the booking check, and an override day uses only its own intervals", () => {
    fc.assert(
      fc.property(arbitraryRules, fc.constantFrom(...dstDays), (service, day) => {
        const from = at(`${day}T00:00:00Z`) - 2 * 86_400_000;
        const to = at(`${day}T00:00:00Z`) + 3 * 86_400_000;
        for (const slot of slotsBetween(service, from, to)) {
          expect(checkWorkingHours(service, slot.start)).toBeNull();
          const local = localDateOf(slot.start, service.timezone);
          const intervals =
            service.dateOverrides?.find((o) => o.date === dateKey(local))?.intervals ??
            service.weeklySchedule[local.weekday] ??
            [];
          // The slot lies inside the spans of exactly those intervals, as a plain weekly schedule would
          // place them; spans that touch join (an end in a spring-forward gap moves past it, onto the
          // next interval's start).
          const expected = joined(
            workingSpans({ timezone: service.timezone, weeklySchedule: { [local.weekday]: intervals } }, local),
          );
          const inside = expected.some((span) => slot.start >= span.start && slot.end <= span.end);
          expect(inside, `${new Date(slot.start).toISOString()} on ${dateKey(local)} in ${service.timezone}`).toBe(
            true,
          );
        }
      }),
      { numRuns: 100 },
    );
  });

  it("on a spring-forward day an interval ending in the skipped hour joins the next one; a week later it does not", () => {
    // New York, Sundays 00:00–02:45 and 03:45–04:00. On 2026-03-08 02:45 does not exist and
    // means 03:45 EDT (07:45Z), where the second interval starts, so a 45-minute slot runs on.
    const service = rules({
      timezone: "America/New_York",
      durationMinutes: 45,
      slotIntervalMinutes: 15,
      weeklySchedule: {
        sun: [
          { start: "00:00", end: "02:45" },
          { start: "03:45", end: "04:00" },
        ],
      },
    });
    expect(checkWorkingHours(service, at("2026-03-08T07:15:00Z"))).toBeNull();
    expect(starts(slotsBetween(service, at("2026-03-08T06:30:00Z"), at("2026-03-08T08:00:00Z")))).toEqual([
      "2026-03-08T06:30:00Z",
      "2026-03-08T06:45:00Z",
      "2026-03-08T07:00:00Z",
      "2026-03-08T07:15:00Z",
    ]);
    // 2026-03-15: 02:45 EDT is 06:45Z, an hour before 03:45 EDT; the last slot starts 02:00.
    expect(starts(slotsBetween(service, at("2026-03-15T05:30:00Z"), at("2026-03-15T08:00:00Z")))).toEqual([
      "2026-03-15T05:30:00Z",
      "2026-03-15T05:45:00Z",
      "2026-03-15T06:00:00Z",
    ]);
    expect(checkWorkingHours(service, at("2026-03-15T07:45:00Z"))?.reason).toBe("outside_working_hours");
  });

  it("a closed override day lists no slot and refuses every start", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("Europe/Berlin", "America/New_York"),
        fc.constantFrom(...dstDays),
        fc.integer({ min: 0, max: 24 * 4 - 1 }),
        (timezone, day, quarter) => {
          const service = rules({
            timezone,
            weeklySchedule: everyDay({ start: "00:00", end: "23:45" }),
            dateOverrides: [{ date: day, intervals: [] }],
          });
          const slots = slotsBetween(
            service,
            at(`${day}T00:00:00Z`) - 86_400_000,
            at(`${day}T00:00:00Z`) + 2 * 86_400_000,
          );
          expect(slots.some((s) => dateKey(localDateOf(s.start, timezone)) === day)).toBe(false);
          expect(slots.length).toBeGreaterThan(0);
          const instant = at(`${day}T00:00:00Z`) + quarter * 15 * 60_000;
          if (dateKey(localDateOf(instant, timezone)) === day)
            expect(checkWorkingHours(service, instant)).not.toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });
});
