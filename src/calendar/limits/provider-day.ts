/**
 * A person's daily limit (`limits.perDay` of their settings): their live claims of every service
 * starting on one calendar day in their own zone — bookings, holds and tentative claims of
 * bookings being made — may not reach past it. Checked in the claim's transaction, after their
 * hours and their time (provider-rules.ts), so a concurrent burst cannot pass it; read per day once
 * for a slot calendar's range. Reads the claims table of claims/storage.ts, by its start index.
 */
import type { ClaimRefusal, ClaimSpan, ProviderSnapshot } from "../claim-types";
import type { Span } from "../rules/service-rules";
import { dayOf, daysOver, limitDetails, limitReached } from "./day-and-week";

const LIVE = "(expires_ms IS NULL OR expires_ms > ?)";

/** The refusal of a claim whose day already holds the person's limit, or null. */
export function dayLimitRefusal(
  sql: SqlStorage,
  provider: ProviderSnapshot,
  claim: ClaimSpan,
  now: number,
): ClaimRefusal | null {
  const limit = provider.limits?.perDay;
  if (limit == null) return null;
  const day = dayOf(claim.start, provider.timezone);
  // The claim itself (held before under its id) and the one a move replaces are not more bookings.
  const own = [claim.claimId, ...(claim.replaces ? [claim.replaces] : [])];
  const { n } = sql
    .exec<{ n: number }>(
      `SELECT count(*) AS n FROM claims WHERE start_ms >= ? AND start_ms < ? AND ${LIVE}
         AND claim_id NOT IN (SELECT value FROM json_each(?))`,
      day.start,
      day.end,
      now,
      JSON.stringify(own),
    )
    .one();
  return n < limit ? null : limitReached(limitDetails.provider(limit));
}

/**
 * The person's local days that `[from, to)` touches, each with their live claims starting then:
 * one read for the range. Empty when they have no daily limit.
 */
export function claimsPerDay(
  sql: SqlStorage,
  provider: Pick<ProviderSnapshot, "timezone" | "limits"> | null,
  from: number,
  to: number,
  now: number,
): (Span & { n: number })[] {
  if (provider?.limits?.perDay == null) return [];
  const days = daysOver(from, to, provider.timezone);
  const starts = sql
    .exec<{ at: number }>(
      `SELECT start_ms AS at FROM claims WHERE start_ms >= ? AND start_ms < ? AND ${LIVE} ORDER BY start_ms`,
      (days[0] as Span).start,
      (days.at(-1) as Span).end,
      now,
    )
    .toArray();
  let i = 0;
  return days.map((day) => {
    let n = 0;
    while (i < starts.length && (starts[i] as { at: number }).at < day.end) {
      i++;
      n++;
    }
    return { ...day, n };
  });
}

/** Whether a start falls on one of `days` that holds `limit` claims already (the slot calendar's test). */
export const fullOn =
  (days: readonly (Span & { n: number })[], limit: number | null | undefined) =>
  (start: number): boolean =>
    limit != null && days.some((day) => start >= day.start && start < day.end && day.n >= limit);
