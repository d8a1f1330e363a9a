/**
 * The live slot calendar: every slot of a range with the seats its overlapping reservations take,
 * and whether the service's limits leave room for one more booking then: one read of the limit
 * counts for every week the slots touch (limits/counts.ts `startsIn`), summed per day and week
 * once, then a walk over the slots in order — never a count per slot.
 */

import type { ServiceLimitSettings } from "../../../types/limits";
import type { LimitCounts } from "../../limits/counts";
import { dayOf, daysOver, roomFor, weeksOver } from "../../limits/day-and-week";
import { hasPeriodLimits } from "../../limits/service-checks";
import { checkTiming, type ServiceRules, type Span, slotsBetween } from "../../rules/service-rules";
import type { LiveSlot } from "../../rules/slots";
import type { CalendarRefusal } from "../../types";
import type { HeldSpan } from "../tables/seats";
import type { CalendarTables } from "../tables/tables";

const MINUTE = 60_000;

/**
 * Slots starting in `[from, to)`, read with one overlap scan for the whole range. A sweep instead
 * of testing every reservation against every slot: slots come in order, so reservations enter
 * once their start is before a slot's end and leave once they end before its start (the CPU
 * profile of a busy day showed the pairwise filter as the top cost: docs/performance.md, "Where
 * the time goes (CPU profiles)"). Each slot is counted in one pass over the rows it overlaps,
 * and each instant written as text once (a slot's end is often the next one's start).
 */
export function liveSlots(
  tables: Pick<CalendarTables, "reservations" | "counts">,
  rules: ServiceRules & ServiceLimitSettings,
  from: number,
  to: number,
  now: number,
): LiveSlot[] {
  const slots = slotsBetween(rules, from, to);
  if (slots.length === 0) return [];
  const before = rules.bufferBeforeMinutes * MINUTE;
  const after = rules.bufferAfterMinutes * MINUTE;
  const span = {
    start: (slots[0] as { start: number }).start - before,
    end: (slots.at(-1) as { end: number }).end + after,
  };
  const held = tables.reservations.seats.holding(span).sort((a, b) => a.s - b.s);
  const closed = closedByLimits(
    tables.counts,
    rules,
    slots.map((s) => s.start),
  );
  const text = new Map<number, string>();
  const iso = (at: number) => {
    let s = text.get(at);
    if (s === undefined) {
      s = new Date(at).toISOString();
      text.set(at, s);
    }
    return s;
  };
  let next = 0;
  const active: HeldSpan[] = [];
  return slots.map((slot, i) => {
    const start = slot.start - before;
    const end = slot.end + after;
    while (next < held.length && (held[next] as HeldSpan).s < end) active.push(held[next++] as HeldSpan);
    let kept = 0;
    let booked = 0;
    let holds = 0;
    const unassigned = { booked: 0, held: 0 };
    for (const row of active) {
      if (row.e <= start) continue;
      active[kept++] = row;
      if (row.s >= end) continue;
      const hold = row.k === "hold";
      if (hold) holds++;
      else booked++;
      if (row.p === null) unassigned[hold ? "held" : "booked"]++;
    }
    active.length = kept;
    const remaining = Math.max(0, rules.capacity - booked - holds);
    const timely = checkTiming(rules, slot.start, slot.end, now) === null;
    // A limit is the reason only where the slot could be booked by time.
    const limited = timely && closed?.[i] === true;
    return {
      startTime: iso(slot.start),
      endTime: iso(slot.end),
      capacity: rules.capacity,
      booked,
      held: holds,
      remaining,
      bookable: remaining > 0 && timely && !limited,
      ...(limited ? { reason: "limit_reached" as const } : {}),
      unassigned,
    };
  });
}

/** The first index of `sorted` whose value is at least `x`. */
function lowerBound(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * For each of `starts` (slot starts, ascending), whether one more booking starting then would be
 * over the service's limit per day or per week; null when the service has neither.
 */
export function closedByLimits(
  counts: LimitCounts,
  service: ServiceLimitSettings & { timezone: string },
  starts: number[],
): boolean[] | null {
  const { limits, timezone } = service;
  if (!limits || !hasPeriodLimits(service) || starts.length === 0) return null;
  const first = starts[0] as number;
  const end = (starts.at(-1) as number) + 1;
  const weeks = weeksOver(first, end, timezone);
  const days = daysOver(first, end, timezone);
  const rows = counts.startsIn({ start: (weeks[0] as Span).start, end: (weeks.at(-1) as Span).end });
  const at = rows.map((r) => r.at);
  const prefix = [0];
  for (const r of rows) prefix.push((prefix.at(-1) as number) + r.n);
  const held = (span: Span) =>
    (prefix[lowerBound(at, span.end)] as number) - (prefix[lowerBound(at, span.start)] as number);
  const dayFull = days.map((day) => !roomFor(limits.perDay, held(day)));
  const weekFull = weeks.map((week) => !roomFor(limits.perWeek, held(week)));
  let d = 0;
  let w = 0;
  return starts.map((start) => {
    while (start >= (days[d] as Span).end) d++;
    while (start >= (weeks[w] as Span).end) w++;
    return (dayFull[d] as boolean) || (weekFull[w] as boolean);
  });
}

/** The share of a day's free times that booking pages' live holds may keep together: half. */
export const PAGE_HOLD_DAY_SHARE = 0.5;

const overlapping = (spans: readonly Span[], span: Span) =>
  spans.filter((s) => s.start < span.end && s.end > span.start).length;

/**
 * The refusal of a booking page's hold over `blocked` (starting at `start`) when page holds would
 * then keep more than PAGE_HOLD_DAY_SHARE of its day's free times, or null: so no set of client
 * addresses can hold a day off the page. The day is the service's; a free time is a seat of a
 * slot still bookable by time that bookings and API holds leave, and page holds keep the ones they
 * take. The day's first page hold always passes, so its last free time can still be booked online.
 * Synchronous: decided in the transaction that places the hold, so a burst cannot pass it.
 */
export function pageShareRefusal(
  tables: Pick<CalendarTables, "reservations" | "holds">,
  rules: ServiceRules,
  start: number,
  blocked: Span,
  now: number,
): CalendarRefusal | null {
  const day = dayOf(start, rules.timezone);
  const slots = slotsBetween(rules, day.start, day.end).filter((s) => checkTiming(rules, s.start, s.end, now) === null);
  if (slots.length === 0) return null;
  const before = rules.bufferBeforeMinutes * MINUTE;
  const after = rules.bufferAfterMinutes * MINUTE;
  const span = { start: (slots[0] as Span).start - before, end: (slots.at(-1) as Span).end + after };
  const rows = tables.reservations.seats.holding(span).map((r) => ({ start: r.s, end: r.e }));
  const pages = tables.holds.pageHeld(span);
  let free = 0;
  let kept = 0;
  let keptAfter = 0;
  for (const slot of slots) {
    const seat = { start: slot.start - before, end: slot.end + after };
    const page = overlapping(pages, seat);
    const seats = Math.max(0, rules.capacity - (overlapping(rows, seat) - page));
    free += seats;
    kept += Math.min(seats, page);
    keptAfter += Math.min(seats, page + overlapping([blocked], seat));
  }
  if (kept === 0 || keptAfter <= Math.floor(free * PAGE_HOLD_DAY_SHARE)) return null;
  return {
    code: "hold_limit_reached",
    reason: "day_share",
    detail:
      "Other visitors are holding many of this day's times right now; choose another day or try again in a few minutes.",
  };
}
