/**
 * Property: the slot calendar and booking agree in every time zone that changes its UTC offset
 * in the next two years. Around each offset change, for generated weekly schedules (including
 * 24:00 ends, intervals around midnight and around the changing hour), every slot `slotsBetween`
 * lists passes `checkWorkingHours`, and every start on the 15-minute grid that passes
 * `checkWorkingHours` is listed.
 */
import { TZDate } from "@date-fns/tz";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { weekdays } from "../../src/calendar/rules/schedule";
import { checkWorkingHours, type ServiceRules, slotsBetween } from "../../src/calendar/rules/service-rules";
import type { TimeInterval, WeeklySchedule } from "../../src/types/schedule";
import { hhmm, iso, rules } from "./fixtures";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Every generated boundary, duration and slot interval is a multiple of this (so are all zone offsets). */
const GRID = 15 * MINUTE;

/** Minutes east of UTC of `timezone` at `ms`. */
const offsetAt = (ms: number, timezone: string) => -new TZDate(ms, timezone).getTimezoneOffset();

/** The instant (to the minute) in `(low, high]` where the offset first differs from the one at `low`. */
function changeBetween(timezone: string, low: number, high: number): number {
  const before = offsetAt(low, timezone);
  let [lo, hi] = [low, high];
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetAt(mid, timezone) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

type Change = { timezone: string; at: number; before: number; after: number };

/** Every offset change in the next two years of every zone the runtime knows (weekly probes). */
function offsetChanges(): Change[] {
  const start = Math.floor(Date.now() / DAY) * DAY;
  const changes: Change[] = [];
  for (const timezone of Intl.supportedValuesOf("timeZone")) {
    let previous = start;
    for (let probe = start + 7 * DAY; probe <= start + 731 * DAY; probe += 7 * DAY) {
      if (offsetAt(probe, timezone) !== offsetAt(previous, timezone)) {
        const at = changeBetween(timezone, previous, probe);
        changes.push({ timezone, at, before: offsetAt(at - MINUTE, timezone), after: offsetAt(at, timezone) });
      }
      previous = probe;
    }
  }
  return changes;
}

const changes = offsetChanges();
const zones = [...new Set(changes.map((c) => c.timezone))];

/** Minutes past local midnight (0–1439) of `ms` at a fixed offset. */
const wallMinutes = (ms: number, offsetMinutes: number) =>
  (((Math.floor(ms / MINUTE) + offsetMinutes) % 1440) + 1440) % 1440;

/** A wall time of the day on the 15-minute grid, biased to midnight, 24:00 and the changing hour. */
function boundaryOf(change: Change): fc.Arbitrary<number> {
  const snap = (m: number) => Math.min(1440, Math.max(0, Math.round(m / 15) * 15));
  // The wall clock just before and just after the change, and half an hour / an hour either side.
  const walls = [wallMinutes(change.at, change.before), wallMinutes(change.at, change.after)];
  const special = [0, 1440, ...walls.flatMap((w) => [w - 60, w - 30, w, w + 30, w + 60])].map(snap);
  return fc.oneof(
    fc.constantFrom(...special),
    fc.integer({ min: 0, max: 96 }).map((n) => n * 15),
  );
}

/** A day's intervals: distinct sorted boundaries paired up, so intervals never overlap. */
const dayOf = (boundary: fc.Arbitrary<number>): fc.Arbitrary<TimeInterval[]> =>
  fc.uniqueArray(boundary, { maxLength: 6 }).map((marks) => {
    const sorted = [...marks].sort((a, b) => a - b);
    const intervals: TimeInterval[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) {
      intervals.push({ start: hhmm(sorted[i] as number), end: hhmm(sorted[i + 1] as number) });
    }
    return intervals;
  });

const scheduleOf = (change: Change): fc.Arbitrary<WeeklySchedule> => {
  const day = dayOf(boundaryOf(change));
  return fc.tuple(...weekdays.map(() => day)).map((days) => Object.fromEntries(weekdays.map((d, i) => [d, days[i]])));
};

const caseOf = (change: Change): fc.Arbitrary<ServiceRules> =>
  fc
    .record({
      weeklySchedule: scheduleOf(change),
      durationMinutes: fc.constantFrom(15, 30, 45, 60, 90, 120, 240),
      slotIntervalMinutes: fc.constantFrom(15, 30, 45, 60, 90),
    })
    .map((generated) => rules({ timezone: change.timezone, ...generated }));

/** Starts accepted by booking on the 15-minute grid of `[from, to)`. */
function acceptedStarts(service: ServiceRules, from: number, to: number): string[] {
  const accepted: string[] = [];
  for (let start = from; start < to; start += GRID) {
    if (checkWorkingHours(service, start) === null) accepted.push(iso(start));
  }
  return accepted;
}

describe("slotsBetween and checkWorkingHours agree around every offset change of the next two years", () => {
  it("finds the zones that change offset (America/Havana, Atlantic/Azores, Europe/Berlin, …)", () => {
    expect(zones).toEqual(expect.arrayContaining(["America/Havana", "Atlantic/Azores", "Europe/Berlin"]));
    expect(zones).not.toContain("Asia/Tokyo");
  });

  // One test per zone, a few generated schedules around each of its changes: every zone is
  // covered on every run while the whole file stays within seconds.
  for (const timezone of zones) {
    it(timezone, () => {
      const ofZone = changes.filter((c) => c.timezone === timezone);
      fc.assert(
        fc.property(
          fc.constantFrom(...ofZone).chain((change) => fc.tuple(fc.constant(change), caseOf(change))),
          ([change, service]) => {
            // The local days before, of and after the change.
            const from = Math.floor((change.at - 30 * HOUR) / GRID) * GRID;
            const to = from + 60 * HOUR;
            const listed = slotsBetween(service, from, to).map((slot) => iso(slot.start));
            expect(listed).toEqual(acceptedStarts(service, from, to));
          },
        ),
        { numRuns: 5 },
      );
    });
  }
});
