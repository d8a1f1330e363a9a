/**
 * Holds: a seat kept for a few minutes while a customer pays or fills a form. A live hold is a
 * row of kind 'hold' among the reservations, so it takes its seat exactly like a booking (and,
 * with a provider, a claim on the person's time that expires by itself a little later). Its state
 * lives in the `holds` table. Expiry is checked in every transaction that counts seats, so an
 * expired hold never counts and is never converted, and the alarm frees it on time without any
 * request arriving.
 */
import type { Hold, HoldStatus } from "../../../types/hold";
import type { ClaimRef } from "../../claim-types";
import type { Span } from "../../rules/service-rules";
import type { RowClaims } from "./reservations";

/** A hold's seat row: its business, its span, and the claims it holds in other calendars. */
export type HoldSeat = { businessId: string; blocked: Span; claims: ClaimRef[] };

/** The hold records and seat rows of one calendar. Every method runs inside the caller's transaction. */
export class Holds {
  constructor(
    private readonly sql: SqlStorage,
    /** The rows' longest span, which overlap scans start from (a hold's counts like a booking's). */
    private readonly widen: (blocked: Span) => void,
  ) {}

  /**
   * Stores a live hold over `blocked`; with a deadline it still waits for the calendars it claims.
   * `page`: a booking page's visitor placed it, so it counts against the page's share of its day.
   */
  place(
    hold: Hold,
    businessId: string,
    blocked: Span,
    claims: RowClaims = { claims: [], tentativeUntil: null },
    page = false,
  ): void {
    const expires = Date.parse(hold.expiresAt);
    this.sql.exec(
      `INSERT INTO bookings (id, kind, blocked_start_ms, blocked_end_ms, status, version, record, provider_id, claims, tentative_until_ms, expires_ms)
       VALUES (?, 'hold', ?, ?, 'CONFIRMED', 1, ?, ?, ?, ?, ?)`,
      hold.id,
      blocked.start,
      blocked.end,
      // The start is read from the record like a booking's (limits/storage.ts).
      JSON.stringify({ businessId, startTime: hold.startTime, ...(page ? { page: 1 } : {}) }),
      hold.providerId,
      JSON.stringify(claims.claims),
      claims.tentativeUntil,
      expires,
    );
    this.sql.exec(
      "INSERT INTO holds (id, status, expires_ms, record) VALUES (?, ?, ?, ?)",
      hold.id,
      hold.status,
      expires,
      JSON.stringify(hold),
    );
    this.widen(blocked);
  }

  /** The hold, if this calendar has it; a HELD one past its expiry reads as EXPIRED. */
  find(id: string, now: number): Hold | undefined {
    const row = this.sql.exec<{ record: string }>("SELECT record FROM holds WHERE id = ?", id).toArray()[0];
    if (!row) return undefined;
    const hold = JSON.parse(row.record) as Hold;
    return hold.status === "HELD" && Date.parse(hold.expiresAt) <= now ? { ...hold, status: "EXPIRED" } : hold;
  }

  /** The seat row of a live hold: its span and claims. */
  seat(id: string): HoldSeat | undefined {
    const row = this.sql
      .exec<{ s: number; e: number; claims: string; businessId: string }>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e, claims, json_extract(record, '$.businessId') AS businessId
         FROM bookings WHERE id = ? AND kind = 'hold'`,
        id,
      )
      .toArray()[0];
    if (!row) return undefined;
    const claims = JSON.parse(row.claims) as ClaimRef[];
    return { businessId: row.businessId, blocked: { start: row.s, end: row.e }, claims };
  }

  /** Every calendar it claims took the claim: the hold is live like any other. */
  confirm(id: string): void {
    this.sql.exec("UPDATE bookings SET tentative_until_ms = NULL WHERE id = ? AND kind = 'hold'", id);
  }

  /**
   * Ends a hold: its seat is free in this transaction. Answers the claims it held, which the
   * caller releases (or, when it became a booking, keeps).
   */
  end(id: string, status: Exclude<HoldStatus, "HELD">, bookingId: string | null = null): ClaimRef[] {
    const seat = this.seat(id);
    this.sql.exec("DELETE FROM bookings WHERE id = ? AND kind = 'hold'", id);
    const row = this.sql.exec<{ record: string }>("SELECT record FROM holds WHERE id = ?", id).toArray()[0];
    if (row) {
      const hold = { ...(JSON.parse(row.record) as Hold), status, bookingId };
      this.sql.exec("UPDATE holds SET status = ?, record = ? WHERE id = ?", status, JSON.stringify(hold), id);
    }
    return seat?.claims ?? [];
  }

  /** Ends every hold whose time is up; answers each one's id, business and claims to release. */
  expire(now: number): { id: string; businessId: string; claims: ClaimRef[] }[] {
    const due = this.sql
      .exec<{ id: string; businessId: string }>(
        `SELECT id, json_extract(record, '$.businessId') AS businessId FROM bookings
         WHERE kind = 'hold' AND expires_ms <= ? AND tentative_until_ms IS NULL`,
        now,
      )
      .toArray();
    return due.map(({ id, businessId }) => ({ id, businessId, claims: this.end(id, "EXPIRED") }));
  }

  /** The blocked spans of the live page holds (tentative ones included) that overlap `span`. */
  pageHeld(span: Span): Span[] {
    return this.sql
      .exec<Span>(
        `SELECT blocked_start_ms AS start, blocked_end_ms AS end FROM bookings
         WHERE kind = 'hold' AND json_extract(record, '$.page') = 1 AND blocked_start_ms < ? AND blocked_end_ms > ?`,
        span.end,
        span.start,
      )
      .toArray();
  }

  /** When the next live hold expires, or null. */
  nextExpiry(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(expires_ms) AS at FROM bookings WHERE kind = 'hold'").one()
      .at;
  }

  /** Forgets a hold that never became live (refused, or a calendar it claims did not answer); answers its claims. */
  discard(id: string): ClaimRef[] {
    const claims = this.seat(id)?.claims ?? [];
    this.sql.exec("DELETE FROM bookings WHERE id = ? AND kind = 'hold'", id);
    this.sql.exec("DELETE FROM holds WHERE id = ?", id);
    return claims;
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
