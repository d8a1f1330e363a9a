/**
 * Seats: which of the calendar's rows hold a seat over a span. A row holds one while its status
 * is PENDING or CONFIRMED (the partial index `bookings_active_blocked` spells the same list), and
 * each query is one range scan of that index starting no earlier than the longest blocked span
 * ever stored could reach back, so its cost grows with the overlapping rows only.
 */

import type { SeatRow } from "../../rules/seat-conflicts";
import type { Span } from "../../rules/service-rules";

/**
 * A row's blocked span as stored: `[s, e)` in epoch milliseconds; `k` is its kind (booking, move,
 * hold); `p` its provider, or null.
 */
export type HeldSpan = { s: number; e: number; k: string; p: string | null };

const OVERLAPS = "blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?";
const NOT_EXCEPTED = "id NOT IN (SELECT value FROM json_each(?))";

/** Rows a count leaves out: a moved booking's own, or a visit's earlier segments. */
export type Except = string | readonly string[];
const excepted = (except: Except) => JSON.stringify([except].flat());

/** Overlap queries over one calendar's rows. Every method runs inside the caller's transaction. */
export class Seats {
  constructor(
    private readonly sql: SqlStorage,
    /** The longest blocked span stored so far (kept by the rows' writer). */
    private readonly longest: () => number,
  ) {}

  private bounds(span: Span) {
    return [span.start - this.longest() - 1, span.end, span.start] as const;
  }

  /** Blocked spans of the rows holding a seat that overlap `span` (tentative ones included), but `except`. */
  holding(span: Span, except: Except = []): HeldSpan[] {
    return this.sql
      .exec<HeldSpan>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e, kind AS k, provider_id AS p FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND ${OVERLAPS} AND ${NOT_EXCEPTED}`,
        ...this.bounds(span),
        excepted(except),
      )
      .toArray();
  }

  /**
   * Seats taken in one provider's session of this service over `span`: that provider's rows, and
   * every row without a provider. A service's rows have no provider when they were made before
   * it had providers; such a row keeps its seat and, since nobody's time was claimed for it,
   * takes a seat in every provider's session at its time.
   */
  takenFor(providerId: string, span: Span, except: Except = []): number {
    return this.sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND (provider_id = ? OR provider_id IS NULL)
           AND ${OVERLAPS} AND ${NOT_EXCEPTED}`,
        providerId,
        ...this.bounds(span),
        excepted(except),
      )
      .one().n;
  }

  /**
   * The tentative rows (still waiting for their claims) holding a seat over `span` in the session
   * of any of `providers` (null: every row counts, as for a booking without a person).
   */
  tentative(span: Span, providers: readonly (string | null)[]): string[] {
    const rows = this.sql
      .exec<{ id: string; p: string | null }>(
        `SELECT id, provider_id AS p FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND tentative_until_ms IS NOT NULL AND ${OVERLAPS}`,
        ...this.bounds(span),
      )
      .toArray();
    const anyone = providers.includes(null);
    return rows.filter((r) => anyone || r.p === null || providers.includes(r.p)).map((r) => r.id);
  }

  /** Every row holding a seat whose blocked span ends after `now`: what a configuration change is checked against. */
  upcoming(now: number): SeatRow[] {
    return this.sql
      .exec<SeatRow>(
        `SELECT id, blocked_start_ms AS s, blocked_end_ms AS e, provider_id AS p FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_end_ms > ?`,
        now,
      )
      .toArray();
  }
}
