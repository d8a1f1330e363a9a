/**
 * Reservations: the calendar's `bookings` rows, each a durable row that may hold capacity.
 * A row holds a seat while its status is one of `HOLDING_STATUSES`; capacity checks count only
 * those rows, with one range scan of a partial index, so their cost grows with the overlapping
 * rows, not with everything the calendar ever stored.
 */
import type { BookingStatus } from "../domain/booking";
import type { StoredBooking } from "./persist";
import type { HeldClaim } from "./provider-releases";
import type { Span } from "./rules";
import type { SeatRow } from "./seat-conflicts";
import type { CalendarCounters } from "./types";

/**
 * A row's blocked span as stored: `[s, e)` in epoch milliseconds; `k` is its kind (booking, move,
 * hold); `p` its provider, or null.
 */
export type HeldSpan = { s: number; e: number; k: string; p: string | null };

/** The reservation rows of one calendar. Every method runs inside the caller's transaction. */
export class Reservations {
  /** The longest blocked span ever stored: bounds how far back an overlap can begin. */
  private maxBlockedMs: number;

  constructor(private readonly sql: SqlStorage) {
    this.maxBlockedMs = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'max_blocked_ms'").one().value;
  }

  /**
   * Blocked spans of the rows holding capacity that overlap `span`: one range scan of the partial
   * index, starting no earlier than the longest span ever stored could reach back.
   */
  holdingOverlapping(span: Span, exceptId = ""): HeldSpan[] {
    return this.sql
      .exec<HeldSpan>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e, kind AS k, provider_id AS p FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?
           AND id <> ?`,
        span.start - this.maxBlockedMs - 1,
        span.end,
        span.start,
        exceptId,
      )
      .toArray();
  }

  /**
   * Seats taken in one provider's session of this service over `span` (tentative rows included):
   * that provider's rows, and every row without a provider. A service's rows have no provider
   * when they were made before it had providers; such a row keeps its seat and, since nobody's
   * time was claimed for it, takes a seat in every provider's session at its time.
   */
  seatsTaken(providerId: string, span: Span, exceptId = ""): number {
    return this.sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND (provider_id = ? OR provider_id IS NULL)
           AND blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ? AND id <> ?`,
        providerId,
        span.start - this.maxBlockedMs - 1,
        span.end,
        span.start,
        exceptId,
      )
      .one().n;
  }

  /**
   * Stores a new row over `blocked`; it holds a seat from this transaction on if its status does.
   * A row with `tentativeUntil` waits for its provider calendar's answer (see provider-booking.ts).
   */
  insert(
    record: StoredBooking,
    blocked: Span,
    claim?: { claimId: string; tentativeUntil: number | null },
    kind: "booking" | "move" = "booking",
  ): void {
    this.sql.exec(
      `INSERT INTO bookings (id, kind, blocked_start_ms, blocked_end_ms, status, version, record, provider_id, claim_id, tentative_until_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      kind === "move" ? moveRowId(record.id) : record.id,
      kind,
      blocked.start,
      blocked.end,
      record.status,
      record.version,
      JSON.stringify(record),
      record.providerId ?? null,
      claim?.claimId ?? null,
      claim?.tentativeUntil ?? null,
    );
    if (kind === "booking") this.bumpCounter(record.status, 1);
    this.widen(blocked);
  }

  /** Replaces a row's record (status, version, details); a status that stops holding frees the seat. */
  update(previous: StoredBooking, next: StoredBooking): void {
    this.sql.exec(
      "UPDATE bookings SET status = ?, version = ?, record = ? WHERE id = ?",
      next.status,
      next.version,
      JSON.stringify(next),
      next.id,
    );
    if (next.status !== previous.status) {
      this.bumpCounter(previous.status, -1);
      this.bumpCounter(next.status, 1);
    }
  }

  /** Gives a tentative row another provider (automatic assignment trying the next one). */
  reassign(id: string, providerId: string): void {
    const record = { ...this.load(id), providerId };
    this.sql.exec(
      "UPDATE bookings SET provider_id = ?, record = ? WHERE id = ?",
      providerId,
      JSON.stringify(record),
      id,
    );
  }

  /** The provider calendar accepted: the row is a booking like any other from now on. */
  confirm(id: string): void {
    this.sql.exec("UPDATE bookings SET tentative_until_ms = NULL WHERE id = ?", id);
  }

  /** Whether a row is still waiting for its provider calendar's answer. */
  isTentative(id: string): boolean {
    return (
      this.sql.exec("SELECT 1 FROM bookings WHERE id = ? AND tentative_until_ms IS NOT NULL", id).toArray().length > 0
    );
  }

  /** Drops a tentative row that was refused or timed out: its seat is free in this transaction. */
  removeTentative(id: string): void {
    const row = this.sql
      .exec<{ status: BookingStatus; kind: string }>(
        "SELECT status, kind FROM bookings WHERE id = ? AND tentative_until_ms IS NOT NULL",
        id,
      )
      .toArray()[0];
    if (!row) return;
    this.sql.exec("DELETE FROM bookings WHERE id = ?", id);
    if (row.kind === "booking") this.bumpCounter(row.status, -1);
  }

  /**
   * Moves a booking to `next`'s time (and provider), in the caller's transaction: the old span
   * stops holding and the new one starts in the same step.
   */
  move(next: StoredBooking, blocked: Span, claimId: string | null): void {
    this.sql.exec(
      `UPDATE bookings SET blocked_start_ms = ?, blocked_end_ms = ?, version = ?, record = ?, provider_id = ?, claim_id = ?
       WHERE id = ?`,
      blocked.start,
      blocked.end,
      next.version,
      JSON.stringify(next),
      next.providerId ?? null,
      claimId,
      next.id,
    );
    this.widen(blocked);
  }

  /** Remembers the longest blocked span, which bounds how far back an overlap can begin. */
  private widen(blocked: Span): void {
    if (blocked.end - blocked.start > this.maxBlockedMs) {
      this.maxBlockedMs = blocked.end - blocked.start;
      this.sql.exec("UPDATE meta SET value = ? WHERE key = 'max_blocked_ms'", this.maxBlockedMs);
    }
  }

  /** Every row holding a seat whose blocked span ends after `now`: what a configuration change is checked against. */
  upcomingSeats(now: number): SeatRow[] {
    return this.sql
      .exec<SeatRow>(
        `SELECT id, blocked_start_ms AS s, blocked_end_ms AS e, provider_id AS p FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_end_ms > ?`,
        now,
      )
      .toArray();
  }

  /** Tentative rows whose deadline passed: their request died between the two transactions. */
  expiredTentative(now: number): (HeldClaim & { id: string })[] {
    return this.sql
      .exec<HeldClaim & { id: string }>(
        `SELECT id, json_extract(record, '$.businessId') AS businessId, provider_id AS providerId, claim_id AS claimId
         FROM bookings
         WHERE tentative_until_ms IS NOT NULL AND tentative_until_ms <= ?`,
        now,
      )
      .toArray();
  }

  /** The earliest tentative deadline, or null. */
  nextTentativeDeadline(): number | null {
    return this.sql
      .exec<{ at: number | null }>(
        "SELECT min(tentative_until_ms) AS at FROM bookings WHERE tentative_until_ms IS NOT NULL",
      )
      .one().at;
  }

  /** The provider claim a row holds, if any. */
  claimOf(id: string): HeldClaim | undefined {
    return this.sql
      .exec<HeldClaim>(
        `SELECT json_extract(record, '$.businessId') AS businessId, provider_id AS providerId, claim_id AS claimId
         FROM bookings WHERE id = ? AND claim_id IS NOT NULL`,
        id,
      )
      .toArray()[0];
  }

  /** Links a row to the customer D1 resolved for its e-mail (no new version: D1 already agrees). */
  linkCustomer(id: string, customerId: string): void {
    const record = this.load(id);
    if (record.customerId === customerId) return;
    this.sql.exec("UPDATE bookings SET record = ? WHERE id = ?", JSON.stringify({ ...record, customerId }), id);
  }

  find(id: string): StoredBooking | undefined {
    const row = this.sql.exec<{ record: string }>("SELECT record FROM bookings WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.record) as StoredBooking) : undefined;
  }

  load(id: string): StoredBooking {
    return JSON.parse(this.sql.exec<{ record: string }>("SELECT record FROM bookings WHERE id = ?", id).one().record);
  }

  /** Every committed row's id, status and version, by id (tentative rows are not bookings yet). */
  list(): { id: string; status: BookingStatus; version: number }[] {
    return this.sql
      .exec<{ id: string; status: BookingStatus; version: number }>(
        "SELECT id, status, version FROM bookings WHERE kind = 'booking' AND tentative_until_ms IS NULL ORDER BY id",
      )
      .toArray();
  }

  counters(): CalendarCounters {
    const byStatus = Object.fromEntries(
      this.sql
        .exec<{ name: string; value: number }>("SELECT name, value FROM counters")
        .toArray()
        .map((r) => [r.name, r.value]),
    );
    const count = (status: BookingStatus) => (byStatus[status] as number | undefined) ?? 0;
    return {
      active: count("PENDING") + count("CONFIRMED"),
      pending: count("PENDING"),
      confirmed: count("CONFIRMED"),
      cancelled: count("CANCELLED"),
      completed: count("COMPLETED"),
      noShow: count("NO_SHOW"),
    };
  }

  private bumpCounter(status: BookingStatus, delta: number): void {
    this.sql.exec("UPDATE counters SET value = value + ? WHERE name = ?", delta, status);
  }
}

/** The id of the row that holds a booking's new time while it is being moved. */
export const moveRowId = (bookingId: string) => `${bookingId}>move`;
