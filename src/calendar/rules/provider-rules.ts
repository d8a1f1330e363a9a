/**
 * A person's rules as pure functions (rules 6 and 7 of a booking with a provider). The person's
 * calendar calls them inside its critical section, so none of them does I/O.
 */
import type { ClaimRefusal, OverlappingClaim, ProviderSnapshot } from "../claim-types";
import { type WorkingCalendar, withinWorkingTime } from "./service-rules";

/**
 * Rule 6: the provider is active and `[start, end)` is their working time (touching intervals
 * join, also at midnight). `calendar`: where local dates and spans come from (the slot calendar
 * passes one that remembers them).
 */
export function checkProviderWorking(
  provider: ProviderSnapshot,
  start: number,
  end: number,
  calendar?: WorkingCalendar,
): ClaimRefusal | null {
  if (!provider.active) {
    return { ok: false, reason: "provider_unavailable", detail: "The provider is not active." };
  }
  if (withinWorkingTime(provider, start, end, undefined, calendar)) return null;
  return {
    ok: false,
    reason: "provider_unavailable",
    detail: "The provider does not work at that time (own hours, date overrides and time zone).",
  };
}

/**
 * Rule 7: no other claim overlaps, except further seats of the same session (the same service at
 * the same start: a group session), while fewer than `capacity` of them are held.
 */
export function checkProviderFree(
  request: { session: string; capacity: number },
  overlapping: readonly Pick<OverlappingClaim, "session">[],
): ClaimRefusal | null {
  let seats = 0;
  for (const claim of overlapping) {
    if (claim.session !== request.session) {
      return { ok: false, reason: "provider_busy", detail: "The provider is booked at an overlapping time." };
    }
    seats++;
  }
  if (seats >= request.capacity) {
    return { ok: false, reason: "provider_busy", detail: "The provider's session at that time is full." };
  }
  return null;
}
