/**
 * The slot calendar counted over many people (rules/slot-counts.ts) is the sum of it counted over
 * each person alone: the sweep over claims, the per-pass time-zone memo and the people who share
 * hours being asked once a slot never carry one person's answer over to another. Random people
 * (some with the very same hours, some inactive, some with a day off), random claims of this
 * service's sessions and of others, a week of slots in Berlin around a DST change.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HeldClaim, ProviderSnapshot } from "../../src/calendar/claim-types";
import type { ServiceRules } from "../../src/calendar/rules/service-rules";
import { countSlots } from "../../src/calendar/rules/slot-counts";
import type { LiveSlot } from "../../src/calendar/rules/slots";

const MINUTE = 60_000;
const SERVICE = "svc_counted";
/** The week around Europe's spring DST change of 2027 (28 March). */
const first = Date.UTC(2027, 2, 25);
const SLOTS = 7 * 24 * 2;

const rules: ServiceRules = {
  durationMinutes: 30,
  capacity: 2,
  slotIntervalMinutes: 30,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 10,
  minNoticeMinutes: 0,
  maxAdvanceDays: 3650,
  timezone: "Europe/Berlin",
  weeklySchedule: {},
};

const slots: LiveSlot[] = Array.from({ length: SLOTS }, (_, i) => ({
  startTime: new Date(first + i * 30 * MINUTE).toISOString(),
  endTime: new Date(first + (i + 1) * 30 * MINUTE).toISOString(),
  capacity: 2,
  booked: i % 5 === 0 ? 1 : 0,
  held: 0,
  remaining: i % 5 === 0 ? 1 : 2,
  bookable: true,
  unassigned: { booked: i % 5 === 0 ? 1 : 0, held: 0 },
}));

const day = (start: string, end: string) => [{ start, end }];
const schedules = [
  { mon: day("09:00", "17:00"), tue: day("09:00", "17:00"), wed: day("09:00", "17:00"), sun: day("00:00", "24:00") },
  { thu: day("00:00", "24:00"), fri: day("00:00", "24:00"), sat: day("01:00", "04:00"), sun: day("01:00", "04:00") },
];

/** Claims on a person's time: this service's sessions (on the slot grid) or another service's. */
const claims = fc.array(
  fc.record({
    slot: fc.integer({ min: -2, max: SLOTS }),
    length: fc.constantFrom(30, 45, 90),
    other: fc.boolean(),
    held: fc.boolean(),
  }),
  { maxLength: 12 },
);

const person: fc.Arbitrary<Person> = fc.record({
  schedule: fc.integer({ min: 0, max: schedules.length - 1 }),
  active: fc.boolean(),
  dayOff: fc.boolean(),
  claims,
});

type Person = {
  schedule: number;
  active: boolean;
  dayOff: boolean;
  claims: { slot: number; length: number; other: boolean; held: boolean }[];
};

function assigneesOf(people: Person[]) {
  // The same schedule object for everyone who has it, as people sharing hours do.
  return people.map((p, i) => {
    const provider: ProviderSnapshot = {
      id: `prv_${String(i).padStart(2, "0")}`,
      businessId: "biz",
      version: 1,
      active: p.active,
      timezone: "Europe/Berlin",
      weeklySchedule: schedules[p.schedule] as ProviderSnapshot["weeklySchedule"],
      dateOverrides: p.dayOff ? [{ date: "2027-03-28", intervals: [] }] : [],
    };
    const held: HeldClaim[] = p.claims.map((c, j) => {
      const start = first + c.slot * 30 * MINUTE;
      const end = start + c.length * MINUTE;
      return {
        claimId: `clm_${i}_${j}`,
        serviceId: c.other ? "svc_other" : SERVICE,
        session: c.other ? `svc_other@${start}` : `${SERVICE}@${start}`,
        start,
        end,
        blockedStart: start,
        blockedEnd: end + 10 * MINUTE,
        capacity: 2,
        expiresAt: c.held ? first + 3650 * 86_400_000 : null,
        createdAt: first - 86_400_000,
      };
    });
    return { provider, claims: held };
  });
}

/** The slot calendar counted over these people, a day before the week. */
const countOver = (people: ReturnType<typeof assigneesOf>) =>
  countSlots(slots, rules, SERVICE, { providers: people }, first - 86_400_000);
const staff = fc.array(person, { minLength: 2, maxLength: 6 }).map(assigneesOf);

describe("slot counts over many people", () => {
  it("are the sum of the counts over each person alone", () => {
    fc.assert(
      fc.property(staff, (staffing) => {
        const together = countOver(staffing);
        const alone = staffing.map((time) => countOver([time]));
        for (const [i, slot] of together.entries()) {
          const each = alone.map((counted) => counted[i] as (typeof together)[number]);
          const sum = (pick: (s: (typeof together)[number]) => number) => each.reduce((n, s) => n + pick(s), 0);
          expect(slot, slot.startTime).toMatchObject({
            capacity: sum((s) => s.capacity),
            booked: sum((s) => s.booked),
            held: sum((s) => s.held),
            remaining: sum((s) => s.remaining),
            bookable: each.some((s) => s.bookable),
            providers: each.flatMap((s) => s.providers ?? []).sort(),
          });
        }
      }),
      { numRuns: 150 },
    );
  });

  it("are the same whichever order the people come in", () => {
    fc.assert(
      fc.property(staff, (staffing) => {
        expect(countOver([...staffing].reverse())).toEqual(countOver(staffing));
      }),
      { numRuns: 50 },
    );
  });
});
