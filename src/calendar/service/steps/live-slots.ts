/** The live slot calendar: every slot of a range with the seats its overlapping reservations take. */

import { blockedSpan, checkTiming, type ServiceRules, slotsBetween } from "../../rules/service-rules";
import type { LiveSlot } from "../../rules/slots";
import type { Seats } from "../tables/seats";

/** Slots starting in `[from, to)`, read with one overlap scan for the whole range. */
export function liveSlots(seats: Seats, rules: ServiceRules, from: number, to: number, now: number): LiveSlot[] {
  const slots = slotsBetween(rules, from, to);
  if (slots.length === 0) return [];
  const first = blockedSpan(rules, (slots[0] as { start: number }).start, 0).start;
  const last = blockedSpan(rules, 0, (slots.at(-1) as { end: number }).end).end;
  // A sweep instead of testing every reservation against every slot: slots come in order, so
  // reservations enter once their start is before a slot's end and leave once they end before
  // its start (the CPU profile of a busy day showed the pairwise filter as the top cost:
  // docs/performance.md, "Where the time goes (CPU profiles)").
  const held = seats.holding({ start: first, end: last }).sort((a, b) => a.s - b.s);
  let next = 0;
  let active: typeof held = [];
  return slots.map((slot) => {
    const blocked = blockedSpan(rules, slot.start, slot.end);
    while (next < held.length && (held[next] as (typeof held)[number]).s < blocked.end)
      active.push(held[next++] as (typeof held)[number]);
    active = active.filter((r) => r.e > blocked.start);
    const overlapping = active.filter((r) => r.s < blocked.end);
    const holds = overlapping.filter((r) => r.k === "hold").length;
    const booked = overlapping.length - holds;
    const nobody = overlapping.filter((r) => r.p === null);
    const unassignedHeld = nobody.filter((r) => r.k === "hold").length;
    const remaining = Math.max(0, rules.capacity - booked - holds);
    return {
      startTime: new Date(slot.start).toISOString(),
      endTime: new Date(slot.end).toISOString(),
      capacity: rules.capacity,
      booked,
      held: holds,
      remaining,
      bookable: remaining > 0 && checkTiming(rules, slot.start, slot.end, now) === null,
      unassigned: { booked: nobody.length - unassignedHeld, held: unassignedHeld },
    };
  });
}
