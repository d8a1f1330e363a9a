/**
 * Local dates remembered for the isolate (zone-days.ts) answer what converting each time answers
 * (zoned.ts): each instant's date, each date's first instant and working spans, through every
 * 30 minutes of two years in zones whose clocks change at or around midnight or by half an hour,
 * in both directions and in random order with one cache throughout.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { workingSpans } from "../../src/calendar/rules/service-rules";
import { addLocalDays, dateAt, dayStart, instantOf, localDateOf, plainMidnight } from "../../src/calendar/rules/zoned";

const MINUTE = 60_000;
const from = Date.UTC(2026, 0, 1);
const to = Date.UTC(2027, 11, 31);
const zones = [
  "UTC",
  "America/Santiago",
  "America/Havana",
  "Asia/Beirut",
  "America/Asuncion",
  "Africa/Cairo",
  "America/Scoresbysund",
  "Australia/Lord_Howe",
  "Europe/Berlin",
  "Pacific/Chatham",
  "Pacific/Kiritimati",
  "Pacific/Pago_Pago",
];

describe("remembered local dates", () => {
  it("are each instant's own, forward and backward through every 30 minutes of two years", () => {
    const step = 30 * MINUTE;
    const forward = Array.from({ length: (to - from) / step }, (_, i) => from + i * step);
    for (const pass of [forward, [...forward].reverse()]) {
      for (const zone of zones) {
        for (const instant of pass) {
          const direct = localDateOf(instant, zone);
          const remembered = dateAt(instant, zone);
          if (remembered.day !== direct.day || remembered.month !== direct.month || remembered.year !== direct.year) {
            expect(remembered, `${zone} ${new Date(instant).toISOString()}`).toEqual(direct);
          }
        }
      }
    }
  });

  it("are each instant's own in any order, weekday included", () => {
    const instant = fc.integer({ min: from / MINUTE, max: to / MINUTE }).map((m) => m * MINUTE);
    fc.assert(
      fc.property(fc.constantFrom(...zones), instant, (zone, at) => {
        expect(dateAt(at, zone), `${zone} ${new Date(at).toISOString()}`).toEqual(localDateOf(at, zone));
      }),
      { numRuns: 5_000 },
    );
  });

  it("begin where converting midnight says, and only 24-hour dates have a plain midnight", () => {
    for (const zone of zones) {
      for (let date = { year: 2026, month: 1, day: 1 }, i = 0; i < 730; date = addLocalDays(date, 1), i++) {
        const start = instantOf(date, 0, zone);
        expect(dayStart(date, zone)).toBe(start);
        const length = instantOf(addLocalDays(date, 1), 0, zone) - start;
        expect(plainMidnight(date, zone), `${zone} ${JSON.stringify(date)}`).toBe(
          length === 1440 * MINUTE ? start : null,
        );
      }
    }
  });

  it("give each date's working spans as converting each interval does", () => {
    const allDay = [{ start: "00:00", end: "24:00" }];
    const split = [
      { start: "00:00", end: "01:00" },
      { start: "01:30", end: "03:00" },
      { start: "22:30", end: "24:00" },
    ];
    const week = { mon: allDay, tue: split, wed: allDay, thu: split, fri: allDay, sat: split, sun: split };
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    for (const zone of zones) {
      const hours = { timezone: zone, weeklySchedule: week, dateOverrides: [] };
      for (let date = { year: 2026, month: 1, day: 1 }, i = 0; i < 730; date = addLocalDays(date, 1), i++) {
        const day = localDateOf(instantOf(date, 12 * 60, zone), zone).weekday;
        const converted = week[day].map((iv) => ({
          start: instantOf(date, minutes(iv.start), zone),
          end: instantOf(date, minutes(iv.end), zone),
        }));
        expect(workingSpans(hours, date), `${zone} ${JSON.stringify(date)}`).toEqual(converted);
      }
    }
  });
});
