/**
 * Holds: a seat kept for a few minutes while a customer pays or fills a form. A live hold is a
 * row of kind 'hold' among the reservations, so it takes its seat exactly like a booking (and,
 * with a provider, a claim on the person's time that expires by itself a little later). Its state
 * lives in the `holds` table. Expiry is checked in every transaction that counts seats, so an
 * expired hold never counts and is never converted, and the alarm frees it on time without any
 * request arriving.
 */
import type { Hold, HoldStatus } from "../domain/hold";
import type { HeldClaim } from "./provider-releases";
import type { Span } from "./rules";

/** The hold records and seat rows of one calendar. Every method runs inside the caller's transaction. */
export class Holds {
  constructor(private readonly sql: SqlStorage) {}

  /** Stores a live hold over `blocked`; with `tentativeUntil` it still waits for its provider's calendar. */
  place(
    hold: Hold,
    businessId: string,
    blocked: Span,
    claim?: { claimId: string; providerId: string; tentativeUntil: number },
  ): void {
    const expires = Date.parse(hold.expiresAt);
    this.sql.exec(
      `INSERT INTO bookings (id, kind, blocked_start_ms, blocked_end_ms, status, version, record, provider_id, claim_id, tentative_until_ms, expires_ms)
       VALUES (?, 'hold', ?, ?, 'CONFIRMED', 1, ?, ?, ?, ?, ?)`,
      hold.id,
      blocked.start,
      blocked.end,
      JSON.stringify({ businessId }),
      claim?.providerId ?? null,
      claim?.claimId ?? null,
      claim?.tentativeUntil ?? null,
      expires,
    );
    this.sql.exec(
      "INSERT INTO holds (id, status, expires_ms, record) VALUES (?, ?, ?, ?)",
      hold.id,
      hold.status,
      expires,
      JSON.stringify(hold),
    );
  }

  /** The hold, if this calendar has it; a HELD one past its expiry reads as EXPIRED. */
  find(id: string, now: number): Hold | undefined {
    const row = this.sql.exec<{ record: string }>("SELECT record FROM holds WHERE id = ?", id).toArray()[0];
    if (!row) return undefined;
    const hold = JSON.parse(row.record) as Hold;
    return hold.status === "HELD" && Date.parse(hold.expiresAt) <= now ? { ...hold, status: "EXPIRED" } : hold;
  }

  /** The seat row of a live hold: its span and provider claim. */
  seat(id: string): { blocked: Span; claim: HeldClaim | undefined } | undefined {
    const row = this.sql
      .exec<{ s: number; e: number; businessId: string; providerId: string | null; claimId: string | null }>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e, json_extract(record, '$.businessId') AS businessId,
                provider_id AS providerId, claim_id AS claimId
         FROM bookings WHERE id = ? AND kind = 'hold'`,
        id,
      )
      .toArray()[0];
    if (!row) return undefined;
    const claim =
      row.providerId && row.claimId
        ? { businessId: row.businessId, providerId: row.providerId, claimId: row.claimId }
        : undefined;
    return { blocked: { start: row.s, end: row.e }, claim };
  }

  /** The provider calendar took the claim: the hold is live like any other. */
  confirm(id: string): void {
    this.sql.exec("UPDATE bookings SET tentative_until_ms = NULL WHERE id = ? AND kind = 'hold'", id);
  }

  /**
   * Ends a hold: its seat is free in this transaction. Answers the provider claim it held, which
   * the caller releases (or, when it became a booking, keeps).
   */
  end(id: string, status: Exclude<HoldStatus, "HELD">, bookingId: string | null = null): HeldClaim | undefined {
    const seat = this.seat(id);
    this.sql.exec("DELETE FROM bookings WHERE id = ? AND kind = 'hold'", id);
    const row = this.sql.exec<{ record: string }>("SELECT record FROM holds WHERE id = ?", id).toArray()[0];
    if (row) {
      const hold = { ...(JSON.parse(row.record) as Hold), status, bookingId };
      this.sql.exec("UPDATE holds SET status = ?, record = ? WHERE id = ?", status, JSON.stringify(hold), id);
    }
    return seat?.claim;
  }

  /** Ends every hold whose time is up; answers the provider claims to release. */
  expire(now: number): HeldClaim[] {
    const due = this.sql
      .exec<{ id: string }>(
        "SELECT id FROM bookings WHERE kind = 'hold' AND expires_ms <= ? AND tentative_until_ms IS NULL",
        now,
      )
      .toArray();
    return due.flatMap(({ id }) => this.end(id, "EXPIRED") ?? []);
  }

  /** When the next live hold expires, or null. */
  nextExpiry(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(expires_ms) AS at FROM bookings WHERE kind = 'hold'").one()
      .at;
  }

  /** Forgets a hold that never became live (its provider calendar did not answer). */
  discard(id: string): HeldClaim | undefined {
    const claim = this.seat(id)?.claim;
    this.sql.exec("DELETE FROM bookings WHERE id = ? AND kind = 'hold'", id);
    this.sql.exec("DELETE FROM holds WHERE id = ?", id);
    return claim;
  }

  /** Every hold record kept here, and whether it holds its seat at `now`, for reconciliation. */
  list(now: number): { id: string; live: boolean; expiresAt: string }[] {
    return this.sql
      .exec<{ id: string; status: string; expires_ms: number }>("SELECT id, status, expires_ms FROM holds ORDER BY id")
      .toArray()
      .map((h) => ({
        id: h.id,
        live: h.status === "HELD" && h.expires_ms > now,
        expiresAt: new Date(h.expires_ms).toISOString(),
      }));
  }

  /** Drops ended holds older than `before` (their answers are no longer asked for). */
  prune(before: number): void {
    this.sql.exec("DELETE FROM holds WHERE status <> 'HELD' AND expires_ms < ?", before);
  }
}
