import { describe, expect, it } from "vitest";
import {
  findOverlap,
  intervalsOf,
  isValidTimeZone,
  minutesOfDay,
  timeOfDayPattern,
  weekdays,
} from "../../src/calendar/rules/schedule";

describe("minutesOfDay", () => {
  it.each([
    ["00:00", 0],
    ["09:15", 555],
    ["12:00", 720],
    ["23:59", 1439],
    ["24:00", 1440],
  ])("%s is %i minutes after midnight", (hhmm, minutes) => {
    expect(minutesOfDay(hhmm)).toBe(minutes);
  });
});

describe("timeOfDayPattern", () => {
  it.each(["00:00", "09:05", "23:59", "24:00"])("accepts %s", (hhmm) => {
    expect(timeOfDayPattern.test(hhmm)).toBe(true);
  });

  it.each(["9:00", "24:01", "24:30", "25:00", "12:60", "12:5", "", "12:00:00"])("refuses %j", (hhmm) => {
    expect(timeOfDayPattern.test(hhmm)).toBe(false);
  });
});

describe("findOverlap", () => {
  const iv = (start: string, end: string) => ({ start, end });

  it("finds nothing in no, one, or disjoint intervals", () => {
    expect(findOverlap([])).toBe(-1);
    expect(findOverlap([iv("09:00", "17:00")])).toBe(-1);
    expect(findOverlap([iv("14:00", "17:00"), iv("09:00", "12:00")])).toBe(-1);
  });

  it("treats touching intervals as not overlapping", () => {
    expect(findOverlap([iv("09:00", "12:00"), iv("12:00", "17:00")])).toBe(-1);
    expect(findOverlap([iv("18:00", "24:00"), iv("00:00", "06:00")])).toBe(-1);
  });

  it("returns the index (in the input) of the interval that overlaps an earlier one", () => {
    expect(findOverlap([iv("09:00", "12:00"), iv("11:00", "14:00")])).toBe(1);
    // Sorted by start: 09:00 (#1), 11:30 (#2), 14:00 (#0) → #2 overlaps #1.
    expect(findOverlap([iv("14:00", "17:00"), iv("09:00", "12:00"), iv("11:30", "13:00")])).toBe(2);
  });

  it("finds an interval contained in another, and identical intervals", () => {
    expect(findOverlap([iv("09:00", "17:00"), iv("10:00", "11:00")])).toBe(1);
    expect(findOverlap([iv("10:00", "11:00"), iv("09:00", "17:00")])).toBe(0);
    expect(findOverlap([iv("09:00", "10:00"), iv("09:00", "10:00")])).not.toBe(-1);
  });

  it("finds an overlap with an interval that is not the immediate predecessor", () => {
    // 09:00–17:00 covers 12:00–13:00 too, even after the 10:00–11:00 one.
    expect(findOverlap([iv("09:00", "17:00"), iv("12:00", "13:00"), iv("10:00", "11:00")])).not.toBe(-1);
  });
});

describe("intervalsOf", () => {
  it("gives a weekday's intervals in minutes, sorted by start; none for a missing day", () => {
    const schedule = {
      mon: [
        { start: "14:00", end: "17:00" },
        { start: "09:00", end: "12:00" },
      ],
      tue: [{ start: "18:00", end: "24:00" }],
    };
    expect(intervalsOf(schedule, "mon")).toEqual([
      { start: 540, end: 720 },
      { start: 840, end: 1020 },
    ]);
    expect(intervalsOf(schedule, "tue")).toEqual([{ start: 1080, end: 1440 }]);
    expect(intervalsOf(schedule, "wed")).toEqual([]);
  });

  it("indexes weekdays like Date#getDay (Sunday first)", () => {
    expect(weekdays).toEqual(["sun", "mon", "tue", "wed", "thu", "fri", "sat"]);
  });
});

describe("isValidTimeZone", () => {
  it.each(["Europe/Berlin", "UTC", "America/New_York", "Asia/Kolkata", "Pacific/Auckland"])("accepts %s", (tz) => {
    expect(isValidTimeZone(tz)).toBe(true);
  });

  it.each(["Mars/Olympus", "", "../etc", "Europe/", "Not a zone", "x".repeat(65)])("refuses %j", (tz) => {
    expect(isValidTimeZone(tz)).toBe(false);
  });
});
