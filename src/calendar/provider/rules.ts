/**
 * A provider's rules as pure functions (rules 6 and 7 of a booking with a provider). The
 * provider calendar calls them inside its critical section, so none of them does I/O.
 */
import { withinWorkingTime } from "../rules";
import type { ClaimCommand, ClaimResult, ProviderSnapshot } from "./types";

type Refusal = Extract<ClaimResult, { ok: false }>;

/** Rule 6: the provider is active and `[start, end)` is their working time (touching intervals join, also at midnight). */
export function checkProviderWorking(provider: ProviderSnapshot, start: number, end: number): Refusal | null {
  if (!provider.active) {
    return { ok: false, reason: "provider_unavailable", detail: "The provider is not active." };
  }
  if (withinWorkingTime(provider, start, end)) return null;
  return {
    ok: false,
    reason: "provider_unavailable",
    detail: "The provider does not work at that time (own hours, date overrides and time zone).",
  };
}

/** A live claim whose blocked span overlaps the requested one. */
export type OverlappingClaim = { serviceId: string; start: number };

/**
 * Rule 7: no other claim overlaps, except further seats of the same service at the same start
 * (a group session), while fewer than `capacity` of them are held.
 */
export function checkProviderFree(
  request: Pick<ClaimCommand, "serviceId" | "start" | "capacity">,
  overlapping: readonly OverlappingClaim[],
): Refusal | null {
  let seats = 0;
  for (const claim of overlapping) {
    if (claim.serviceId !== request.serviceId || claim.start !== request.start) {
      return { ok: false, reason: "provider_busy", detail: "The provider is booked at an overlapping time." };
    }
    seats++;
  }
  if (seats >= request.capacity) {
    return { ok: false, reason: "provider_busy", detail: "The provider's session at that time is full." };
  }
  return null;
}

/** Throws on a claim no caller should send: these are programming errors, not client input. */
export function assertWellFormedClaim(claim: ClaimCommand): void {
  const instants = [claim.start, claim.end, claim.blockedStart, claim.blockedEnd];
  if (!instants.every(Number.isSafeInteger)) throw new RangeError("Claim instants must be integer milliseconds.");
  if (!(claim.blockedStart <= claim.start && claim.start < claim.end && claim.end <= claim.blockedEnd)) {
    throw new RangeError("A claim needs blockedStart <= start < end <= blockedEnd.");
  }
  if (!Number.isSafeInteger(claim.capacity) || claim.capacity < 1) throw new RangeError("Capacity must be >= 1.");
  if (!claim.claimId || !claim.serviceId) throw new RangeError("A claim needs a claimId and a serviceId.");
}
