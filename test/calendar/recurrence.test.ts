/**
 * A series' rule (the RFC 5545 RRULE subset) and its occurrences: the first one's wall-clock
 * time kept in the service's time zone across DST, the bounds, and every malformed rule refused
 * with a sentence. Europe/Berlin springs forward on 2027-03-28 and falls back on 2027-10-31.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_SERIES_DAYS,
  occurrenceStarts,
  parseRecurrence,
  type Recurrence,
} from "../../src/calendar/rules/recurrence";
import { localDateOf } from "../../src/calendar/rules/zoned";

const NOW = Date.UTC(2027, 0, 4);
const rule = (text: string): Recurrence => {
  const parsed = parseRecurrence(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
};
const starts = (text: string, first: string, zone = "Europe/Berlin") => {
  const result = occurrenceStarts(rule(text), Date.parse(first), zone, NOW);
  if (!result.ok) throw new Error(result.message);
  return result.starts.map((s) => new Date(s).toISOString());
};

describe("parseRecurrence", () => {
  it.each([
    ["FREQ=WEEKLY;COUNT=8", { freq: "WEEKLY", interval: 1, count: 8 }],
    ["RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3", { freq: "DAILY", interval: 2, count: 3 }],
    ["freq=monthly;until=20270601T000000Z", { freq: "MONTHLY", interval: 1, until: Date.UTC(2027, 5, 1) }],
    ["FREQ=WEEKLY;UNTIL=20270601", { freq: "WEEKLY", interval: 1, until: Date.UTC(2027, 5, 1, 23, 59, 59) }],
  ])("%s", (text, expected) => {
    expect(parseRecurrence(text)).toEqual({ ok: true, rule: expected });
  });

  it.each([
    ["", "is not KEY=VALUE"],
    ["FREQ=YEARLY;COUNT=2", "FREQ must be"],
    ["FREQ=WEEKLY", "exactly one of COUNT and UNTIL"],
    ["FREQ=WEEKLY;COUNT=2;UNTIL=20270601", "exactly one of COUNT and UNTIL"],
    ["FREQ=WEEKLY;COUNT=1", "COUNT must be"],
    ["FREQ=WEEKLY;COUNT=53", "COUNT must be"],
    ["FREQ=WEEKLY;COUNT=8;INTERVAL=13", "INTERVAL must be"],
    ["FREQ=WEEKLY;COUNT=8;INTERVAL=0", "INTERVAL must be"],
    ["FREQ=WEEKLY;COUNT=8;BYDAY=MO", "BYDAY is not supported"],
    ["FREQ=WEEKLY;FREQ=DAILY;COUNT=2", "given twice"],
    ["FREQ=WEEKLY;UNTIL=20270230", "UNTIL must be"],
    ["FREQ=WEEKLY;UNTIL=2027-06-01", "UNTIL must be"],
  ])("refuses %j", (text, message) => {
    const parsed = parseRecurrence(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(message);
  });

  it("any text is parsed or refused with a sentence, never thrown", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const parsed = parseRecurrence(text);
        if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("occurrenceStarts", () => {
  it("weekly at 10:00 in Berlin stays 10:00 local across the spring change: 09:00Z, then 08:00Z", () => {
    expect(starts("FREQ=WEEKLY;COUNT=3", "2027-03-21T09:00:00Z")).toEqual([
      "2027-03-21T09:00:00.000Z",
      "2027-03-28T08:00:00.000Z",
      "2027-04-04T08:00:00.000Z",
    ]);
  });

  it("and across the autumn change: 08:00Z, then 09:00Z", () => {
    expect(starts("FREQ=WEEKLY;COUNT=2", "2027-10-24T08:00:00Z")).toEqual([
      "2027-10-24T08:00:00.000Z",
      "2027-10-31T09:00:00.000Z",
    ]);
  });

  it("daily with an interval, and UNTIL inclusive", () => {
    expect(starts("FREQ=DAILY;INTERVAL=2;UNTIL=20270115T090000Z", "2027-01-11T09:00:00Z", "UTC")).toEqual([
      "2027-01-11T09:00:00.000Z",
      "2027-01-13T09:00:00.000Z",
      "2027-01-15T09:00:00.000Z",
    ]);
  });

  it("monthly on the 31st skips the months without one (RFC 5545), COUNT counting real ones", () => {
    expect(starts("FREQ=MONTHLY;COUNT=3", "2027-01-31T09:00:00Z", "UTC")).toEqual([
      "2027-01-31T09:00:00.000Z",
      "2027-03-31T09:00:00.000Z",
      "2027-05-31T09:00:00.000Z",
    ]);
  });

  it("refuses more than 52 occurrences, a start past 366 days, and a rule with one occurrence", () => {
    const daily = occurrenceStarts(rule("FREQ=DAILY;UNTIL=20270501"), Date.UTC(2027, 0, 5, 9), "UTC", NOW);
    expect(daily).toEqual({ ok: false, message: "A series has at most 52 occurrences." });
    const far = occurrenceStarts(rule("FREQ=MONTHLY;INTERVAL=12;COUNT=3"), Date.UTC(2027, 0, 5, 9), "UTC", NOW);
    expect(far.ok).toBe(false);
    const once = occurrenceStarts(rule("FREQ=DAILY;UNTIL=20270105T100000Z"), Date.UTC(2027, 0, 5, 9), "UTC", NOW);
    expect(once).toEqual({ ok: false, message: "The rule gives fewer than 2 occurrences." });
  });

  it("property: every occurrence has the first one's local time and steps by the rule", () => {
    const zones = fc.constantFrom("Europe/Berlin", "America/New_York", "Australia/Sydney", "UTC");
    fc.assert(
      fc.property(
        zones,
        fc.constantFrom("DAILY", "WEEKLY"),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 20 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 47 }),
        (zone, freq, interval, count, dayOffset, halfHour) => {
          const first = NOW + dayOffset * 86_400_000 + halfHour * 1_800_000;
          const result = occurrenceStarts({ freq: freq as "DAILY", interval, count }, first, zone, NOW);
          const step = (freq === "WEEKLY" ? 7 : 1) * interval;
          if (!result.ok) {
            // At most 20 occurrences here, so only the horizon refuses: the last one would start past it
            // (its day, plus up to a day for the time of day and a DST hour).
            expect(result.message).toBe(`Every occurrence must start within ${MAX_SERIES_DAYS} days.`);
            expect(dayOffset + 2 + (count - 1) * step).toBeGreaterThan(MAX_SERIES_DAYS);
            return;
          }
          const offsetAt = (t: number) =>
            new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortOffset" })
              .formatToParts(t)
              .find((p) => p.type === "timeZoneName")?.value;
          const wall = (t: number) =>
            new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeStyle: "short" }).format(t);
          const day0 = localDateOf(first, zone);
          for (const [n, start] of result.starts.entries()) {
            const d = localDateOf(start, zone);
            const days =
              (Date.UTC(d.year, d.month - 1, d.day) - Date.UTC(day0.year, day0.month - 1, day0.day)) / 86_400_000;
            expect(days).toBe(n * step);
            // A time inside a spring-forward gap moves on by the gap; every other keeps its wall time.
            if (wall(start) !== wall(first)) expect(offsetAt(start - 2 * 3_600_000)).not.toBe(offsetAt(start));
          }
          expect(result.starts).toHaveLength(count);
        },
      ),
    );
  });
});
