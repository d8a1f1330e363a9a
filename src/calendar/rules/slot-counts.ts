/**
 * The slot calendar of a service with providers, as a pure function. A provider offers a session
 * at a slot when they are active, working then, and their time then is free or taken only by
 * this session (claims of this service at this start); the slot's `capacity`, `booked` and
 * `held` count those sessions, so `remaining = capacity − booked − held`, and `providers` lists
 * the ones with a seat left. The same rules the provider calendar decides a claim with
 * (provider/rules.ts), so the calendar shows what booking would accept.
 */

import { type HeldClaim, type ProviderSnapshot, sessionOf } from "../claim-types";
import { checkProviderFree, checkProviderWorking } from "./person-rules";
import { blockedSpan, checkTiming, type ServiceRules } from "./service-rules";
import type { CalendarSlot, LiveSlot } from "./slots";

/** A provider with the live claims on their time around the range. */
export type ProviderTime = { provider: ProviderSnapshot; claims: HeldClaim[] };

/**
 * Recounts each slot over the sessions its providers offer. A booking or hold without a provider
 * (made before the service had providers) takes a seat in every session at its time.
 */
export function withProviders(
  slots: LiveSlot[],
  rules: ServiceRules,
  serviceId: string,
  people: ProviderTime[],
  now: number,
): (CalendarSlot & { providers: string[] })[] {
  return slots.map(({ unassigned, ...slot }) => {
    const start = Date.parse(slot.startTime);
    const end = Date.parse(slot.endTime);
    const blocked = blockedSpan(rules, start, end);
    let capacity = 0;
    let booked = 0;
    let held = 0;
    const free: string[] = [];
    for (const { provider, claims } of people) {
      const overlapping = claims.filter((c) => c.blockedStart < blocked.end && c.blockedEnd > blocked.start);
      const offers =
        checkProviderWorking(provider, start, end) === null &&
        checkProviderFree(
          { session: sessionOf("provider", serviceId, start, []), capacity: Number.POSITIVE_INFINITY },
          overlapping,
        ) === null;
      if (!offers) continue;
      // Every overlapping claim is this session's (checked above); holds expire, bookings do not.
      const sessionHeld = overlapping.filter((c) => c.expiresAt !== null).length + unassigned.held;
      const sessionBooked = overlapping.length - (sessionHeld - unassigned.held) + unassigned.booked;
      capacity += rules.capacity;
      booked += sessionBooked;
      held += sessionHeld;
      if (sessionBooked + sessionHeld < rules.capacity) free.push(provider.id);
    }
    const remaining = capacity - booked - held;
    return {
      ...slot,
      capacity,
      booked,
      held,
      remaining,
      bookable: free.length > 0 && checkTiming(rules, start, end, now) === null,
      providers: free.sort(),
    };
  });
}
