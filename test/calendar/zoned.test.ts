/**
 * Local wall-clock ↔ instant conversion, and the rules across DST changes.
 * Europe/Berlin: CET (UTC+1) ↔ CEST (UTC+2); spring forward 2026-03-29 02:00→03:00, fall back 2026-10-25 03:00→02:00.
 * America/New_York: EST (UTC−5) ↔ EDT (UTC−4); spring forward 2026-03-08, fall back 2026-11-01.
 * All four change days are Sundays.
 */
import { describe, expect, it } from "vitest";
import { checkWorkingHours, slotsBetween } from "../../src/calendar/rules/service-rules";
import { addLocalDays, compareDates, instantOf, localDateOf, weekdayOf } from "../../src/calendar/rules/zoned";
import { at, everyDay, iso, rules, starts } from "./fixtures";

const HOUR = 3_600_000;

describe("localDateOf", () => {
  it("gives the local date and weekday of an instant", () => {
    expect(localDateOf(at("2026-06-01T12:00:00Z"), "UTC")).toEqual({ year: 2026, month: 6, day: 1, weekday: "mon" });
    // 23:30Z on Saturday is already Sunday 00:30 in Berlin (CET+1) …
    expect(localDateOf(at("2026-03-28T23:30:00Z"), "Europe/Berlin")).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      weekday: "sun",
    });
    // … and still Saturday 19:30 in New York (EDT−4).
    expect(localDateOf(at("2026-03-28T23:30:00Z"), "America/New_York")).toEqual({
      year: 2026,
      month: 3,
      day: 28,
      weekday: "sat",
    });
  });

  it("crosses a year boundary", () => {
    expect(localDateOf(at("2026-12-31T23:30:00Z"), "Europe/Berlin")).toEqual({
      year: 2027,
      month: 1,
      day: 1,
      weekday: "fri",
    });
  });
});

describe("instantOf", () => {
  const d = (year: number, month: number, day: number) => ({ year, month, day });
  const local = (date: ReturnType<typeof d>, minutes: number, tz: string) => iso(instantOf(date, minutes, tz));

  it("maps local midnight and 24:00 on ordinary days", () => {
    expect(local(d(2026, 6, 1), 0, "Europe/Berlin")).toBe("2026-05-31T22:00:00Z");
    expect(local(d(2026, 6, 1), 1440, "Europe/Berlin")).toBe("2026-06-01T22:00:00Z");
    expect(local(d(2026, 1, 15), 540, "America/New_York")).toBe("2026-01-15T14:00:00Z");
  });

  it("makes the spring-forward day 23 hours and the fall-back day 25 hours long (Berlin)", () => {
    const spring = d(2026, 3, 29);
    expect(local(spring, 0, "Europe/Berlin")).toBe("2026-03-28T23:00:00Z");
    expect(local(spring, 1440, "Europe/Berlin")).toBe("2026-03-29T22:00:00Z");
    const fall = d(2026, 10, 25);
    expect(local(fall, 0, "Europe/Berlin")).toBe("2026-10-24T22:00:00Z");
    expect(local(fall, 1440, "Europe/Berlin")).toBe("2026-10-25T23:00:00Z");
  });

  it("moves a wall time in the spring-forward gap forward by the gap", () => {
    // 02:30 does not exist on 2026-03-29 in Berlin; it becomes 03:30 CEST.
    expect(local(d(2026, 3, 29), 150, "Europe/Berlin")).toBe("2026-03-29T01:30:00Z");
    // 02:30 does not exist on 2026-03-08 in New York; it becomes 03:30 EDT.
    expect(local(d(2026, 3, 8), 150, "America/New_York")).toBe("2026-03-08T07:30:00Z");
  });

  it("resolves a wall time in the repeated fall-back hour to the later (standard-time) instant", () => {
    // 02:30 happens twice on 2026-10-25 in Berlin: 00:30Z (CEST) and 01:30Z (CET).
    expect(local(d(2026, 10, 25), 150, "Europe/Berlin")).toBe("2026-10-25T01:30:00Z");
    // 01:30 happens twice on 2026-11-01 in New York: 05:30Z (EDT) and 06:30Z (EST).
    expect(local(d(2026, 11, 1), 90, "America/New_York")).toBe("2026-11-01T06:30:00Z");
  });
});

describe("date helpers", () => {
  it("weekdayOf, addLocalDays and compareDates", () => {
    expect(weekdayOf({ year: 2026, month: 3, day: 29 })).toBe("sun");
    expect(weekdayOf({ year: 2026, month: 6, day: 1 })).toBe("mon");
    expect(addLocalDays({ year: 2026, month: 2, day: 28 }, 1)).toEqual({ year: 2026, month: 3, day: 1 });
    expect(addLocalDays({ year: 2026, month: 1, day: 1 }, -1)).toEqual({ year: 2025, month: 12, day: 31 });
    expect(compareDates({ year: 2026, month: 3, day: 1 }, { year: 2026, month: 2, day: 28 })).toBeGreaterThan(0);
    expect(compareDates({ year: 2026, month: 3, day: 1 }, { year: 2026, month: 3, day: 1 })).toBe(0);
    expect(compareDates({ year: 2025, month: 12, day: 31 }, { year: 2026, month: 1, day: 1 })).toBeLessThan(0);
  });
});

describe("a 09:00–17:00 local schedule around DST changes", () => {
  // One-hour appointments every hour, every day of the week.
  const nineToFive = (timezone: string) =>
    rules({
      timezone,
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      weeklySchedule: everyDay({ start: "09:00", end: "17:00" }),
    });

  // [local date, UTC instant of 09:00 local]
  const cases: [string, string, [string, string][]][] = [
    [
      "Europe/Berlin",
      "spring forward",
      [
        ["2026-03-28", "2026-03-28T08:00:00Z"],
        ["2026-03-29", "2026-03-29T07:00:00Z"],
        ["2026-03-30", "2026-03-30T07:00:00Z"],
      ],
    ],
    [
      "Europe/Berlin",
      "fall back",
      [
        ["2026-10-24", "2026-10-24T07:00:00Z"],
        ["2026-10-25", "2026-10-25T08:00:00Z"],
        ["2026-10-26", "2026-10-26T08:00:00Z"],
      ],
    ],
    [
      "America/New_York",
      "spring forward",
      [
        ["2026-03-07", "2026-03-07T14:00:00Z"],
        ["2026-03-08", "2026-03-08T13:00:00Z"],
        ["2026-03-09", "2026-03-09T13:00:00Z"],
      ],
    ],
    [
      "America/New_York",
      "fall back",
      [
        ["2026-10-31", "2026-10-31T13:00:00Z"],
        ["2026-11-01", "2026-11-01T14:00:00Z"],
        ["2026-11-02", "2026-11-02T14:00:00Z"],
      ],
    ],
  ];

  for (const [timezone, change, days] of cases) {
    describe(`${timezone}, ${change}`, () => {
      const service = nineToFive(timezone);

      for (const [date, nine] of days) {
        it(`${date}: first slot at ${nine}, last at 16:00 local, nothing outside`, () => {
          const first = at(nine);
          const slots = slotsBetween(service, at(`${date}T00:00:00Z`), at(`${date}T23:59:59Z`));
          expect(starts(slots)).toEqual(Array.from({ length: 8 }, (_, i) => iso(first + i * HOUR)));
          expect(slots.at(-1)?.end).toBe(first + 8 * HOUR); // 17:00 local

          expect(checkWorkingHours(service, first)).toBeNull();
          expect(checkWorkingHours(service, first + 7 * HOUR)).toBeNull();
          expect(checkWorkingHours(service, first - HOUR)).not.toBeNull(); // 08:00 local
          expect(checkWorkingHours(service, first + 8 * HOUR)).not.toBeNull(); // 17:00 local
        });
      }
    });
  }
});

describe("a 00:00–06:00 local interval across DST changes", () => {
  const earlyHours = (timezone: string) =>
    rules({
      timezone,
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      weeklySchedule: everyDay({ start: "00:00", end: "06:00" }),
    });

  /** The slots of local date `date` (the UTC window [date − 12 h, date + 18 h) holds exactly that day's). */
  const slotsOn = (timezone: string, date: string) => {
    const midnightZ = at(`${date}T00:00:00Z`);
    return slotsBetween(earlyHours(timezone), midnightZ - 12 * HOUR, midnightZ + 18 * HOUR);
  };

  it("Europe/Berlin: one slot fewer on the spring-forward day", () => {
    expect(slotsOn("Europe/Berlin", "2026-03-28")).toHaveLength(6);
    expect(starts(slotsOn("Europe/Berlin", "2026-03-29"))).toEqual([
      "2026-03-28T23:00:00Z", // 00:00 CET
      "2026-03-29T00:00:00Z", // 01:00 CET
      "2026-03-29T01:00:00Z", // 03:00 CEST
      "2026-03-29T02:00:00Z", // 04:00 CEST
      "2026-03-29T03:00:00Z", // 05:00 CEST
    ]);
    expect(slotsOn("Europe/Berlin", "2026-03-30")).toHaveLength(6);
  });

  it("Europe/Berlin: one slot more on the fall-back day", () => {
    expect(slotsOn("Europe/Berlin", "2026-10-24")).toHaveLength(6);
    expect(starts(slotsOn("Europe/Berlin", "2026-10-25"))).toEqual([
      "2026-10-24T22:00:00Z", // 00:00 CEST
      "2026-10-24T23:00:00Z", // 01:00 CEST
      "2026-10-25T00:00:00Z", // 02:00 CEST
      "2026-10-25T01:00:00Z", // 02:00 CET (the repeated hour)
      "2026-10-25T02:00:00Z", // 03:00 CET
      "2026-10-25T03:00:00Z", // 04:00 CET
      "2026-10-25T04:00:00Z", // 05:00 CET
    ]);
    expect(slotsOn("Europe/Berlin", "2026-10-26")).toHaveLength(6);
  });

  it("America/New_York: one slot fewer on the spring-forward day", () => {
    expect(slotsOn("America/New_York", "2026-03-07")).toHaveLength(6);
    expect(starts(slotsOn("America/New_York", "2026-03-08"))).toEqual([
      "2026-03-08T05:00:00Z", // 00:00 EST
      "2026-03-08T06:00:00Z", // 01:00 EST
      "2026-03-08T07:00:00Z", // 03:00 EDT
      "2026-03-08T08:00:00Z", // 04:00 EDT
      "2026-03-08T09:00:00Z", // 05:00 EDT
    ]);
  });

  it("America/New_York: one slot more on the fall-back day", () => {
    expect(slotsOn("America/New_York", "2026-10-31")).toHaveLength(6);
    expect(starts(slotsOn("America/New_York", "2026-11-01"))).toEqual([
      "2026-11-01T04:00:00Z", // 00:00 EDT
      "2026-11-01T05:00:00Z", // 01:00 EDT
      "2026-11-01T06:00:00Z", // 01:00 EST (the repeated hour)
      "2026-11-01T07:00:00Z", // 02:00 EST
      "2026-11-01T08:00:00Z", // 03:00 EST
      "2026-11-01T09:00:00Z", // 04:00 EST
      "2026-11-01T10:00:00Z", // 05:00 EST
    ]);
  });

  it("accepts bookings in both copies of the repeated hour and none past 06:00", () => {
    const berlin = earlyHours("Europe/Berlin");
    expect(checkWorkingHours(berlin, at("2026-10-25T00:00:00Z"))).toBeNull(); // 02:00 CEST
    expect(checkWorkingHours(berlin, at("2026-10-25T01:00:00Z"))).toBeNull(); // 02:00 CET
    expect(checkWorkingHours(berlin, at("2026-10-25T05:00:00Z"))).not.toBeNull(); // 06:00 CET
    expect(checkWorkingHours(berlin, at("2026-03-29T04:00:00Z"))).not.toBeNull(); // 06:00 CEST
  });

  it("agrees with checkWorkingHours on every listed slot", () => {
    for (const [tz, date] of [
      ["Europe/Berlin", "2026-03-29"],
      ["Europe/Berlin", "2026-10-25"],
      ["America/New_York", "2026-03-08"],
      ["America/New_York", "2026-11-01"],
    ] as const) {
      for (const slot of slotsOn(tz, date)) {
        expect(checkWorkingHours(earlyHours(tz), slot.start), `${tz} ${iso(slot.start)}`).toBeNull();
      }
    }
  });
});

describe("an interval opening inside the repeated fall-back hour", () => {
  // Opens 30 minutes into the repeated hour; 30-minute appointments every 30 minutes.
  const opensInRepeatedHour = (timezone: string, start: string, end: string) =>
    rules({ timezone, weeklySchedule: { sun: [{ start, end }] } });

  it("Europe/Berlin 02:30–04:00 on 2026-10-25 opens at 02:30 CET (the later 02:30)", () => {
    const service = opensInRepeatedHour("Europe/Berlin", "02:30", "04:00");
    expect(starts(slotsBetween(service, at("2026-10-24T12:00:00Z"), at("2026-10-25T12:00:00Z")))).toEqual([
      "2026-10-25T01:30:00Z", // 02:30 CET
      "2026-10-25T02:00:00Z", // 03:00 CET
      "2026-10-25T02:30:00Z", // 03:30 CET
    ]);
  });

  it("America/New_York 01:30–03:00 on 2026-11-01 opens at 01:30 EST (the later 01:30)", () => {
    const service = opensInRepeatedHour("America/New_York", "01:30", "03:00");
    expect(starts(slotsBetween(service, at("2026-11-01T00:00:00Z"), at("2026-11-01T12:00:00Z")))).toEqual([
      "2026-11-01T06:30:00Z", // 01:30 EST
      "2026-11-01T07:00:00Z", // 02:00 EST
      "2026-11-01T07:30:00Z", // 02:30 EST
    ]);
    // 06:00Z is 01:00 EST on the wall clock: before the 01:30 opening time.
    expect(checkWorkingHours(service, at("2026-11-01T06:00:00Z"))).not.toBeNull();
  });
});

describe("an interval ending at 24:00 where local midnight repeats", () => {
  // The day ends when the next local date begins: at the first of the two midnights.
  const untilMidnight = (timezone: string, day: "sat") =>
    rules({ timezone, weeklySchedule: { [day]: [{ start: "23:00", end: "24:00" }] } });

  it("America/Havana 2026-10-31 23:00–24:00 lists only slots booking accepts (midnight repeats at 04:00Z and 05:00Z)", () => {
    const service = untilMidnight("America/Havana", "sat");
    const slots = slotsBetween(service, at("2026-10-31T12:00:00Z"), at("2026-11-01T12:00:00Z"));
    expect(starts(slots)).toEqual(["2026-11-01T03:00:00Z", "2026-11-01T03:30:00Z"]); // 23:00, 23:30 CDT
    expect(slots.at(-1)?.end).toBe(at("2026-11-01T04:00:00Z")); // the first 00:00
    for (const slot of slots) expect(checkWorkingHours(service, slot.start), iso(slot.start)).toBeNull();
    expect(checkWorkingHours(service, at("2026-11-01T04:00:00Z"))).not.toBeNull(); // 00:00 CDT, Sunday
    expect(checkWorkingHours(service, at("2026-11-01T04:30:00Z"))).not.toBeNull();
  });

  // Greenland's east coast springs forward from Saturday 23:00 (UTC−2) straight to Sunday 00:00
  // (UTC−1): that Saturday ends at 23:00, so its 23:30 does not exist on that date.
  it("America/Scoresbysund 2027-03-27 00:00–23:30 ends where Sunday begins (01:00Z), not in Sunday", () => {
    const saturday = { year: 2027, month: 3, day: 27 };
    expect(instantOf(saturday, 23 * 60 + 30, "America/Scoresbysund")).toBe(at("2027-03-28T01:00:00Z"));
    expect(instantOf(saturday, 23 * 60 + 15, "America/Scoresbysund")).toBe(at("2027-03-28T01:00:00Z"));
    expect(instantOf(saturday, 22 * 60 + 45, "America/Scoresbysund")).toBe(at("2027-03-28T00:45:00Z"));
    const service = rules({
      timezone: "America/Scoresbysund",
      durationMinutes: 15,
      slotIntervalMinutes: 15,
      weeklySchedule: { ...everyDay(), sat: [{ start: "00:00", end: "23:30" }] },
    });
    const slots = slotsBetween(service, at("2027-03-27T22:00:00Z"), at("2027-03-28T04:00:00Z"));
    expect(starts(slots).at(-1)).toBe("2027-03-28T00:45:00Z"); // Saturday 22:45, the last quarter of its day
    for (const slot of slots) expect(checkWorkingHours(service, slot.start), iso(slot.start)).toBeNull();
    expect(checkWorkingHours(service, at("2027-03-28T01:00:00Z"))).not.toBeNull(); // Sunday 00:00
  });

  it("Atlantic/Azores 2026-10-24 23:00–24:00 lists only slots booking accepts (midnight repeats at 00:00Z and 01:00Z)", () => {
    const service = untilMidnight("Atlantic/Azores", "sat");
    const slots = slotsBetween(service, at("2026-10-24T12:00:00Z"), at("2026-10-25T12:00:00Z"));
    expect(starts(slots)).toEqual(["2026-10-24T23:00:00Z", "2026-10-24T23:30:00Z"]); // 23:00, 23:30 (UTC+0)
    expect(slots.at(-1)?.end).toBe(at("2026-10-25T00:00:00Z"));
    for (const slot of slots) expect(checkWorkingHours(service, slot.start), iso(slot.start)).toBeNull();
    expect(checkWorkingHours(service, at("2026-10-25T00:00:00Z"))).not.toBeNull();
    expect(checkWorkingHours(service, at("2026-10-25T00:30:00Z"))).not.toBeNull();
  });
});
