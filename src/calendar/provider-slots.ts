/**
 * The slot calendar of a service with providers, as a pure function: a slot has a seat where one
 * of the providers is active, working then, and free (no other session overlaps, and their
 * session of this service still has a seat). The same rules the provider calendar decides a
 * claim with (provider/rules.ts), so the calendar shows what booking would accept.
 */
import { checkProviderFree, checkProviderWorking } from "./provider/rules";
import type { ProviderClaim, ProviderSnapshot } from "./provider/types";
import { blockedSpan, checkTiming, type ServiceRules } from "./rules";
import type { CalendarSlot } from "./types";

/** A provider with the live claims on their time around the range. */
export type ProviderTime = { provider: ProviderSnapshot; claims: ProviderClaim[] };

/** Adds each slot's free providers and recounts its seats over those providers' sessions. */
export function withProviders(
  slots: CalendarSlot[],
  rules: ServiceRules,
  serviceId: string,
  people: ProviderTime[],
  now: number,
): (CalendarSlot & { providers: string[] })[] {
  return slots.map((slot) => {
    const start = Date.parse(slot.startTime);
    const end = Date.parse(slot.endTime);
    const blocked = blockedSpan(rules, start, end);
    let remaining = 0;
    let booked = 0;
    let held = 0;
    const free: string[] = [];
    for (const { provider, claims } of people) {
      const overlapping = claims.filter((c) => c.blockedStart < blocked.end && c.blockedEnd > blocked.start);
      const sessionClaims = overlapping.filter((c) => c.serviceId === serviceId && c.start === start);
      const session = sessionClaims.length;
      const holds = sessionClaims.filter((c) => c.expiresAt !== null).length;
      held += holds;
      booked += session - holds;
      const refused =
        checkProviderWorking(provider, start, end) ??
        checkProviderFree({ serviceId, start, capacity: rules.capacity }, overlapping);
      if (refused) continue;
      free.push(provider.id);
      remaining += rules.capacity - session;
    }
    const capacity = rules.capacity * people.length;
    return {
      ...slot,
      capacity,
      booked,
      held,
      remaining,
      bookable: remaining > 0 && checkTiming(rules, start, end, now) === null,
      providers: free.sort(),
    };
  });
}
