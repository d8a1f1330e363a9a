/**
 * The availability rules (docs/api-behaviour.md, "Availability rules") as pure functions, in UTC
 * (DST cases live in zoned.test.ts).
 */
import { describe, expect, it } from "vitest";
import {
  blockedSpan,
  checkCapacity,
  checkRequest,
  checkTiming,
  checkWorkingHours,
  slotsBetween,
} from "../../src/calendar/rules/service-rules";
import { at, everyDay, iso, rules, starts } from "./fixtures";

// 2026-06-01 is a Monday.
const NOW = at("2026-06-01T08:00:00Z");

describe("checkTiming (rules 2 and 3)", () => {
  const service = rules({ durationMinutes: 30, minNoticeMinutes: 120, maxAdvanceDays: 30 });
  const timing = (start: string, end: string) => checkTiming(service, at(start), at(end), NOW);
  const reasonOf = (start: string, end: string) => timing(start, end)?.reason ?? null;

  it("accepts a well-formed request", () => {
    expect(timing("2026-06-02T10:00:00Z", "2026-06-02T10:30:00Z")).toBeNull();
  });

  it("refuses an end equal to the start", () => {
    expect(timing("2026-06-02T10:00:00Z", "2026-06-02T10:00:00Z")).toMatchObject({
      kind: "invalid",
      field: "endTime",
      reason: "end_not_after_start",
    });
  });

  it("refuses an end before the start (before looking at the duration)", () => {
    expect(reasonOf("2026-06-02T10:00:00Z", "2026-06-02T09:30:00Z")).toBe("end_not_after_start");
  });

  it("refuses a duration one minute short or one minute long", () => {
    expect(timing("2026-06-02T10:00:00Z", "2026-06-02T10:29:00Z")).toMatchObject({
      field: "endTime",
      reason: "wrong_duration",
    });
    expect(reasonOf("2026-06-02T10:00:00Z", "2026-06-02T10:31:00Z")).toBe("wrong_duration");
  });

  it("refuses a start 1 ms in the past as in_the_past (not too_soon)", () => {
    expect(timing("2026-06-01T07:59:59.999Z", "2026-06-01T08:29:59.999Z")).toMatchObject({
      field: "startTime",
      reason: "in_the_past",
    });
  });

  it("accepts a start exactly minNotice ahead and refuses one a minute sooner", () => {
    // now + 120 minutes = 10:00
    expect(timing("2026-06-01T10:00:00Z", "2026-06-01T10:30:00Z")).toBeNull();
    expect(timing("2026-06-01T09:59:00Z", "2026-06-01T10:29:00Z")).toMatchObject({
      field: "startTime",
      reason: "too_soon",
    });
  });

  it("accepts a start starting right now when there is no minimum notice", () => {
    const noNotice = rules({ minNoticeMinutes: 0 });
    expect(checkTiming(noNotice, NOW, at("2026-06-01T08:30:00Z"), NOW)).toBeNull();
  });

  it("accepts a start exactly maxAdvanceDays ahead and refuses one a minute later", () => {
    // now + 30 days = 2026-07-01T08:00Z
    expect(timing("2026-07-01T08:00:00Z", "2026-07-01T08:30:00Z")).toBeNull();
    expect(timing("2026-07-01T08:01:00Z", "2026-07-01T08:31:00Z")).toMatchObject({
      field: "startTime",
      reason: "too_far_ahead",
    });
  });
});

describe("checkWorkingHours in UTC (rule 4)", () => {
  // One-hour appointments on a 30-minute grid.
  const service = rules({
    durationMinutes: 60,
    slotIntervalMinutes: 30,
    weeklySchedule: {
      mon: [
        { start: "14:00", end: "17:00" },
        { start: "09:00", end: "12:00" },
      ],
      tue: [{ start: "09:15", end: "12:00" }],
      sat: [],
    },
  });
  const ok = (start: string) => checkWorkingHours(service, at(start)) === null;

  it("accepts the first slot of an interval", () => {
    expect(ok("2026-06-01T09:00:00Z")).toBe(true);
  });

  it("accepts the last slot, ending exactly at the interval end", () => {
    expect(ok("2026-06-01T11:00:00Z")).toBe(true);
  });

  it("refuses a slot that would run past the interval end", () => {
    expect(checkWorkingHours(service, at("2026-06-01T11:30:00Z"))).toMatchObject({
      kind: "unavailable",
      reason: "outside_working_hours",
    });
  });

  it("refuses a start before the first interval", () => {
    expect(ok("2026-06-01T08:30:00Z")).toBe(false);
  });

  it("refuses a start off the slot grid", () => {
    expect(ok("2026-06-01T10:10:00Z")).toBe(false);
    expect(ok("2026-06-01T10:00:01Z")).toBe(false);
  });

  it("counts the grid from each interval's own start (09:15–12:00)", () => {
    expect(ok("2026-06-02T09:15:00Z")).toBe(true);
    expect(ok("2026-06-02T09:45:00Z")).toBe(true);
    expect(ok("2026-06-02T10:45:00Z")).toBe(true); // ends 11:45
    expect(ok("2026-06-02T09:30:00Z")).toBe(false);
    expect(ok("2026-06-02T09:00:00Z")).toBe(false);
    expect(ok("2026-06-02T11:15:00Z")).toBe(false); // would end 12:15
  });

  it("refuses every time on a day without intervals (absent or empty)", () => {
    expect(ok("2026-06-03T10:00:00Z")).toBe(false); // Wednesday: absent
    expect(ok("2026-06-06T10:00:00Z")).toBe(false); // Saturday: []
    expect(ok("2026-06-07T10:00:00Z")).toBe(false); // Sunday: absent
  });

  it("handles two intervals on one day, including the break between them", () => {
    expect(ok("2026-06-01T14:00:00Z")).toBe(true);
    expect(ok("2026-06-01T16:00:00Z")).toBe(true); // ends 17:00
    expect(ok("2026-06-01T16:30:00Z")).toBe(false); // would end 17:30
    expect(ok("2026-06-01T12:00:00Z")).toBe(false); // in the break
    expect(ok("2026-06-01T13:30:00Z")).toBe(false); // starts in the break, ends inside the next interval
  });

  describe("an interval ending at 24:00", () => {
    const late = (tue: { start: string; end: string }[]) =>
      rules({
        durationMinutes: 30,
        slotIntervalMinutes: 30,
        weeklySchedule: { mon: [{ start: "18:00", end: "24:00" }], tue },
      });

    it("accepts a booking 23:30–24:00", () => {
      const service = late([{ start: "09:00", end: "17:00" }]);
      expect(checkWorkingHours(service, at("2026-06-01T23:30:00Z"))).toBeNull();
      expect(checkRequest(service, at("2026-06-01T23:30:00Z"), at("2026-06-02T00:00:00Z"), NOW)).toBeNull();
    });

    it("judges a booking at 00:00 the next day by the next day's schedule", () => {
      expect(checkWorkingHours(late([{ start: "09:00", end: "17:00" }]), at("2026-06-02T00:00:00Z"))).toMatchObject({
        reason: "outside_working_hours",
      });
      expect(checkWorkingHours(late([{ start: "00:00", end: "02:00" }]), at("2026-06-02T00:00:00Z"))).toBeNull();
    });

    it("lets an appointment run past midnight into the next day's interval when they touch", () => {
      const hourLong = rules({
        durationMinutes: 60,
        slotIntervalMinutes: 30,
        weeklySchedule: { mon: [{ start: "18:00", end: "24:00" }], tue: [{ start: "00:00", end: "02:00" }] },
      });
      expect(checkWorkingHours(hourLong, at("2026-06-01T23:00:00Z"))).toBeNull();
      expect(checkWorkingHours(hourLong, at("2026-06-01T23:30:00Z"))).toBeNull();
      expect(
        slotsBetween(hourLong, at("2026-06-01T23:00:00Z"), at("2026-06-02T00:30:00Z")).map((s) => s.start),
      ).toEqual([at("2026-06-01T23:00:00Z"), at("2026-06-01T23:30:00Z"), at("2026-06-02T00:00:00Z")]);
    });

    it("keeps a gap after midnight a gap: the next day starting 00:30 does not join", () => {
      const hourLong = rules({
        durationMinutes: 60,
        slotIntervalMinutes: 30,
        weeklySchedule: { mon: [{ start: "18:00", end: "24:00" }], tue: [{ start: "00:30", end: "02:00" }] },
      });
      expect(checkWorkingHours(hourLong, at("2026-06-01T23:30:00Z"))).not.toBeNull();
    });

    it("joins a date override that ends at 24:00 with the next day's hours", () => {
      const hourLong = rules({
        durationMinutes: 60,
        slotIntervalMinutes: 30,
        weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }], tue: [{ start: "00:00", end: "08:00" }] },
        dateOverrides: [{ date: "2026-06-01", intervals: [{ start: "20:00", end: "24:00" }] }],
      });
      expect(checkWorkingHours(hourLong, at("2026-06-01T23:30:00Z"))).toBeNull();
      expect(checkWorkingHours(hourLong, at("2026-06-08T23:30:00Z"))).not.toBeNull(); // no override that Monday
    });
  });

  it("joins touching intervals of one day, keeping each interval's own grid", () => {
    const split = rules({
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      weeklySchedule: {
        mon: [
          { start: "09:00", end: "12:00" },
          { start: "12:00", end: "17:00" },
        ],
      },
    });
    expect(checkWorkingHours(split, at("2026-06-01T11:00:00Z"))).toBeNull();
    // 11:30 is off the 09:00 grid; 12:00 starts the second interval's grid.
    expect(checkWorkingHours(split, at("2026-06-01T11:30:00Z"))).not.toBeNull();
    expect(checkWorkingHours(split, at("2026-06-01T12:00:00Z"))).toBeNull();
  });

  it("joins working days around the clock across local midnight in a DST zone (Europe/Berlin)", () => {
    const day = [{ start: "00:00", end: "24:00" }];
    const allWeek = { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day };
    const overnight = rules({
      durationMinutes: 120,
      slotIntervalMinutes: 60,
      timezone: "Europe/Berlin",
      weeklySchedule: allWeek,
    });
    // 2026-03-28 23:00 local (22:00Z) to 2026-03-29 02:00 local: the clocks jump at 02:00 that night.
    expect(checkWorkingHours(overnight, at("2026-03-28T22:00:00Z"))).toBeNull();
    expect(checkWorkingHours(overnight, at("2026-10-24T21:00:00Z"))).toBeNull(); // before the fall-back night
  });
});

describe("checkRequest", () => {
  const service = rules({ minNoticeMinutes: 60 });

  it("reports a timing problem before a working-hours problem", () => {
    // Sunday, off the grid, and too soon: the timing reason wins.
    const now = at("2026-06-07T09:30:00Z");
    expect(checkRequest(service, at("2026-06-07T10:10:00Z"), at("2026-06-07T10:40:00Z"), now)).toMatchObject({
      kind: "invalid",
      reason: "too_soon",
    });
  });

  it("reports working hours once the timing is fine", () => {
    expect(checkRequest(service, at("2026-06-07T10:00:00Z"), at("2026-06-07T10:30:00Z"), NOW)).toMatchObject({
      kind: "unavailable",
      reason: "outside_working_hours",
    });
    expect(checkRequest(service, at("2026-06-08T10:00:00Z"), at("2026-06-08T10:30:00Z"), NOW)).toBeNull();
  });
});

describe("blockedSpan and checkCapacity (rule 5)", () => {
  it("widens the appointment by the buffers on both sides", () => {
    const span = blockedSpan(
      rules({ bufferBeforeMinutes: 10, bufferAfterMinutes: 15 }),
      at("2026-06-01T10:00:00Z"),
      at("2026-06-01T10:30:00Z"),
    );
    expect({ start: iso(span.start), end: iso(span.end) }).toEqual({
      start: "2026-06-01T09:50:00Z",
      end: "2026-06-01T10:45:00Z",
    });
  });

  it("is the appointment itself without buffers", () => {
    const span = blockedSpan(rules(), at("2026-06-01T10:00:00Z"), at("2026-06-01T10:30:00Z"));
    expect({ start: iso(span.start), end: iso(span.end) }).toEqual({
      start: "2026-06-01T10:00:00Z",
      end: "2026-06-01T10:30:00Z",
    });
  });

  const span = (start: string, end: string) => ({ start: at(start), end: at(end) });
  /** The calendar's overlap condition on half-open blocked spans. */
  const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
    a.start < b.end && b.start < a.end;

  it("makes back-to-back bookings collide only when buffers demand it", () => {
    const service = rules({ bufferBeforeMinutes: 10, bufferAfterMinutes: 15 });
    const existing = span("2026-06-01T10:00:00Z", "2026-06-01T10:30:00Z");
    const requested = (start: string, end: string) => blockedSpan(service, at(start), at(end));
    expect(overlaps(requested("2026-06-01T10:30:00Z", "2026-06-01T11:00:00Z"), existing)).toBe(true);
    expect(overlaps(requested("2026-06-01T10:40:00Z", "2026-06-01T11:10:00Z"), existing)).toBe(false);
    // Blocked 09:10–10:05 reaches into the existing appointment; blocked 09:05–10:00 only touches it.
    expect(overlaps(requested("2026-06-01T09:20:00Z", "2026-06-01T09:50:00Z"), existing)).toBe(true);
    expect(overlaps(requested("2026-06-01T09:15:00Z", "2026-06-01T09:45:00Z"), existing)).toBe(false);
  });

  it("leaves a seat while fewer than capacity bookings overlap", () => {
    const service = rules({ capacity: 3 });
    expect(checkCapacity(service, 0)).toBeNull();
    expect(checkCapacity(service, 2)).toBeNull();
    expect(checkCapacity(service, 3)).toMatchObject({ kind: "unavailable", reason: "fully_booked" });
    expect(checkCapacity(service, 4)).toMatchObject({ reason: "fully_booked" });
    expect(checkCapacity(rules({ capacity: 1 }), 1)).toMatchObject({ reason: "fully_booked" });
  });
});

describe("slotsBetween", () => {
  const service = rules(); // UTC, Mon–Fri 09:00–17:00, 30-minute slots
  const between = (from: string, to: string, r = service) => starts(slotsBetween(r, at(from), at(to)));

  it("treats the range as half-open [from, to)", () => {
    expect(between("2026-06-01T09:00:00Z", "2026-06-01T10:30:00Z")).toEqual([
      "2026-06-01T09:00:00Z",
      "2026-06-01T09:30:00Z",
      "2026-06-01T10:00:00Z",
    ]);
    expect(between("2026-06-01T09:00:00.001Z", "2026-06-01T10:00:00.001Z")).toEqual([
      "2026-06-01T09:30:00Z",
      "2026-06-01T10:00:00Z",
    ]);
    expect(between("2026-06-01T10:00:00Z", "2026-06-01T10:00:00Z")).toEqual([]);
  });

  it("gives each slot the service's duration", () => {
    const [slot] = slotsBetween(service, at("2026-06-01T09:00:00Z"), at("2026-06-01T09:30:00Z"));
    expect(slot && { start: iso(slot.start), end: iso(slot.end) }).toEqual({
      start: "2026-06-01T09:00:00Z",
      end: "2026-06-01T09:30:00Z",
    });
  });

  it("includes only the later slots of a range starting mid-day", () => {
    expect(between("2026-06-01T15:45:00Z", "2026-06-02T00:00:00Z")).toEqual([
      "2026-06-01T16:00:00Z",
      "2026-06-01T16:30:00Z",
    ]);
  });

  it("returns slots sorted ascending even when intervals are listed out of order", () => {
    const split = rules({
      weeklySchedule: {
        mon: [
          { start: "14:00", end: "15:00" },
          { start: "09:00", end: "10:00" },
        ],
        tue: [{ start: "08:00", end: "09:00" }],
      },
    });
    const result = slotsBetween(split, at("2026-06-01T00:00:00Z"), at("2026-06-03T00:00:00Z"));
    expect(starts(result)).toEqual([
      "2026-06-01T09:00:00Z",
      "2026-06-01T09:30:00Z",
      "2026-06-01T14:00:00Z",
      "2026-06-01T14:30:00Z",
      "2026-06-02T08:00:00Z",
      "2026-06-02T08:30:00Z",
    ]);
    const ascending = [...result].sort((a, b) => a.start - b.start);
    expect(result).toEqual(ascending);
  });

  it("spans several days in Europe/Berlin, skipping days off", () => {
    const berlin = rules({
      timezone: "Europe/Berlin",
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      weeklySchedule: { mon: [{ start: "09:00", end: "12:00" }], fri: [{ start: "09:00", end: "12:00" }] },
    });
    // Fri 2026-06-05 to Tue 2026-06-09 (UTC midnights); Berlin is UTC+2 in June.
    expect(between("2026-06-05T00:00:00Z", "2026-06-09T00:00:00Z", berlin)).toEqual([
      "2026-06-05T07:00:00Z",
      "2026-06-05T08:00:00Z",
      "2026-06-05T09:00:00Z",
      "2026-06-08T07:00:00Z",
      "2026-06-08T08:00:00Z",
      "2026-06-08T09:00:00Z",
    ]);
  });

  it("finds a local day's slots that fall on the previous UTC day (Pacific/Auckland)", () => {
    const auckland = rules({
      timezone: "Pacific/Auckland", // NZST, UTC+12, in June
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      weeklySchedule: { mon: [{ start: "08:00", end: "10:00" }] },
    });
    // Monday 2026-06-01 08:00 in Auckland is Sunday 2026-05-31 20:00Z.
    expect(between("2026-05-31T00:00:00Z", "2026-06-01T00:00:00Z", auckland)).toEqual([
      "2026-05-31T20:00:00Z",
      "2026-05-31T21:00:00Z",
    ]);
  });

  it("finds a local day's slots that fall on the next UTC day (America/Los_Angeles)", () => {
    const la = rules({
      timezone: "America/Los_Angeles", // PDT, UTC−7, in June
      weeklySchedule: { mon: [{ start: "18:00", end: "19:00" }] },
    });
    expect(between("2026-06-02T00:00:00Z", "2026-06-03T00:00:00Z", la)).toEqual([
      "2026-06-02T01:00:00Z",
      "2026-06-02T01:30:00Z",
    ]);
  });

  it("gives overlapping slots when the slot interval is shorter than the duration", () => {
    const overlapping = rules({
      durationMinutes: 60,
      slotIntervalMinutes: 15,
      weeklySchedule: { mon: [{ start: "09:00", end: "11:00" }] },
    });
    const result = slotsBetween(overlapping, at("2026-06-01T00:00:00Z"), at("2026-06-02T00:00:00Z"));
    expect(result.map((s) => [iso(s.start), iso(s.end)])).toEqual([
      ["2026-06-01T09:00:00Z", "2026-06-01T10:00:00Z"],
      ["2026-06-01T09:15:00Z", "2026-06-01T10:15:00Z"],
      ["2026-06-01T09:30:00Z", "2026-06-01T10:30:00Z"],
      ["2026-06-01T09:45:00Z", "2026-06-01T10:45:00Z"],
      ["2026-06-01T10:00:00Z", "2026-06-01T11:00:00Z"],
    ]);
  });

  it("lists the slot ending at 24:00", () => {
    const late = rules({ weeklySchedule: { mon: [{ start: "23:00", end: "24:00" }] } });
    expect(between("2026-06-01T00:00:00Z", "2026-06-03T00:00:00Z", late)).toEqual([
      "2026-06-01T23:00:00Z",
      "2026-06-01T23:30:00Z",
    ]);
  });

  it("lists only slots that checkWorkingHours accepts", () => {
    const overlapping = rules({ durationMinutes: 45, slotIntervalMinutes: 20 });
    const result = slotsBetween(overlapping, at("2026-06-01T00:00:00Z"), at("2026-06-08T00:00:00Z"));
    expect(result.length).toBeGreaterThan(0);
    for (const slot of result) expect(checkWorkingHours(overlapping, slot.start), iso(slot.start)).toBeNull();
  });

  it("with a limit, stops at limit + 1 slots, the first ones in order", () => {
    const all = between("2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z"); // 5 weekdays × 16
    expect(all).toHaveLength(80);
    const capped = starts(slotsBetween(service, at("2026-06-01T00:00:00Z"), at("2026-06-08T00:00:00Z"), 20));
    expect(capped).toEqual(all.slice(0, 21));
    expect(slotsBetween(service, at("2026-06-01T00:00:00Z"), at("2026-06-08T00:00:00Z"), 80)).toHaveLength(80);
  });

  it("lists no slot ending after 9999-12-31T23:59:59.999Z, the last instant the API can write", () => {
    // 9999-12-31 is a Friday; in Kiritimati (UTC+14) year 10000 begins ten hours before UTC's.
    for (const timezone of ["UTC", "Pacific/Kiritimati"]) {
      const hourly = rules({
        timezone,
        durationMinutes: 60,
        slotIntervalMinutes: 60,
        weeklySchedule: everyDay({ start: "00:00", end: "24:00" }),
      });
      const slots = slotsBetween(hourly, at("9999-12-31T21:00:00Z"), at("9999-12-31T21:00:00Z") + 7 * 86_400_000);
      expect(starts(slots), timezone).toEqual(["9999-12-31T21:00:00Z", "9999-12-31T22:00:00Z"]);
      expect(iso((slots.at(-1) as { end: number }).end)).toBe("9999-12-31T23:00:00Z");
    }
  });
});
