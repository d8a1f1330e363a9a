/** A claimed calendar's claims as stored, and the checks every claim goes through. */
import type { ClaimSpan, HeldClaim } from "../claim-types";

/** A row of the `claims` table. */
export type ClaimRow = {
  claim_id: string;
  service_id: string;
  session: string;
  start_ms: number;
  end_ms: number;
  blocked_start_ms: number;
  blocked_end_ms: number;
  capacity: number;
  expires_ms: number | null;
  created_ms: number;
};

export const claimOf = (row: ClaimRow): HeldClaim => ({
  claimId: row.claim_id,
  serviceId: row.service_id,
  session: row.session,
  start: row.start_ms,
  end: row.end_ms,
  blockedStart: row.blocked_start_ms,
  blockedEnd: row.blocked_end_ms,
  capacity: row.capacity,
  expiresAt: row.expires_ms,
  createdAt: row.created_ms,
});

/** Whether a held claim covers exactly the requested span for the same session. */
export function sameSpan(row: ClaimRow, command: ClaimSpan): boolean {
  return (
    row.service_id === command.serviceId &&
    row.session === command.session &&
    row.start_ms === command.start &&
    row.end_ms === command.end &&
    row.blocked_start_ms === command.blockedStart &&
    row.blocked_end_ms === command.blockedEnd
  );
}

/** Throws on a claim no caller should send: these are programming errors, not client input. */
export function assertWellFormedClaim(claim: ClaimSpan): void {
  const instants = [claim.start, claim.end, claim.blockedStart, claim.blockedEnd];
  if (!instants.every(Number.isSafeInteger)) throw new RangeError("Claim instants must be integer milliseconds.");
  if (!(claim.blockedStart <= claim.start && claim.start < claim.end && claim.end <= claim.blockedEnd)) {
    throw new RangeError("A claim needs blockedStart <= start < end <= blockedEnd.");
  }
  if (!Number.isSafeInteger(claim.capacity) || claim.capacity < 1) throw new RangeError("Capacity must be >= 1.");
  if (!claim.claimId || !claim.serviceId || !claim.session) {
    throw new RangeError("A claim needs a claimId, a serviceId and a session.");
  }
}
