/**
 * Reservations: the calendar's `bookings` rows, each a durable row that may hold a seat — a
 * booking, the new time of a booking being moved (`move`), a hold's seat (`hold`, kept by
 * tables/holds.ts), or a visit's segment claimed by the visit's entry and not confirmed yet (`segment`,
 * steps/seat-claims.ts). A row lists the claims it holds in other calendars (people, resources); while it
 * waits for them it is tentative, with a deadline after which the alarm gives it up.
 */
import type { BookingRecord, BookingStatus } from "../../../types/booking";
import type { ClaimRef } from "../../claim-types";
import type { Span } from "../../rules/service-rules";
import type { CalendarCounters } from "../../types";
import { Seats } from "./seats";

/** How a row waits for the calendars it claims: the claims it lists, and its deadline while tentative. */
export type RowClaims = { claims: ClaimRef[]; tentativeUntil: number | null };

/** A tentative row whose deadline passed, with what it may have claimed. */
export type ExpiredRow = { id: string; kind: string; businessId: string; claims: ClaimRef[] };

const parseClaims = (json: string | null): ClaimRef[] => (json ? (JSON.parse(json) as ClaimRef[]) : []);

/** The reservation rows of one calendar. Every method runs inside the caller's transaction. */
export class Reservations {
  /** The longest blocked span ever stored: bounds how far back an overlap can begin. */
  private maxBlockedMs: number;
  /** Which rows hold a seat over a span. */
  readonly seats: Seats;

  constructor(private readonly sql: SqlStorage) {
    this.maxBlockedMs = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'max_blocked_ms'").one().value;
    this.seats = new Seats(sql, () => this.maxBlockedMs);
  }

  /** Stores a new row over `blocked`; it holds a seat from this transaction on if its status does. */
  insert(
    record: BookingRecord,
    blocked: Span,
    claims: RowClaims = { claims: [], tentativeUntil: null },
    kind: "booking" | "move" | "segment" = "booking",
  ): void {
    this.sql.exec(
      `INSERT INTO bookings (id, kind, blocked_start_ms, blocked_end_ms, status, version, record, provider_id, claims, tentative_until_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      kind === "move" ? moveRowId(record.id) : record.id,
      kind,
      blocked.start,
      blocked.end,
      record.status,
      record.version,
      JSON.stringify(record),
      record.providerId ?? null,
      JSON.stringify(claims.claims),
      claims.tentativeUntil,
    );
    if (kind === "booking") this.bumpCounter(record.status, 1);
    this.widen(blocked);
  }

  /** Replaces a row's record (status, version, details); a status that stops holding frees the seat. */
  update(previous: BookingRecord, next: BookingRecord): void {
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

  /**
   * Every calendar it claimed accepted: the row is a booking (or a move) like any other from now
   * on; with `claims`, those it keeps (a visit's entry lists every segment's while it waits).
   */
  confirm(id: string, claims?: ClaimRef[]): void {
    this.sql.exec(
      "UPDATE bookings SET tentative_until_ms = NULL, claims = coalesce(?, claims) WHERE id = ?",
      claims ? JSON.stringify(claims) : null,
      id,
    );
  }

  /** A claimed segment becomes a booking; answers whether the row was a segment. */
  promoteSegment(id: string): boolean {
    const row = this.sql
      .exec<{ status: BookingStatus }>("SELECT status FROM bookings WHERE id = ? AND kind = 'segment'", id)
      .toArray()[0];
    if (!row) return false;
    this.sql.exec("UPDATE bookings SET kind = 'booking' WHERE id = ?", id);
    this.bumpCounter(row.status, 1);
    return true;
  }

  /** Drops a claimed segment that never became a booking; answers whether there was one. */
  removeSegment(id: string): boolean {
    return this.sql.exec("DELETE FROM bookings WHERE id = ? AND kind = 'segment'", id).rowsWritten > 0;
  }

  /** Whether a row is still waiting for the calendars it claims. */
  isTentative(id: string): boolean {
    return (
      this.sql.exec("SELECT 1 FROM bookings WHERE id = ? AND tentative_until_ms IS NOT NULL", id).toArray().length > 0
    );
  }

  /** Drops a tentative row that was refused or timed out (its seat is free in this transaction); answers its claims. */
  removeTentative(id: string): ClaimRef[] {
    const row = this.sql
      .exec<{ status: BookingStatus; kind: string; claims: string }>(
        "SELECT status, kind, claims FROM bookings WHERE id = ? AND tentative_until_ms IS NOT NULL",
        id,
      )
      .toArray()[0];
    if (!row) return [];
    this.sql.exec("DELETE FROM bookings WHERE id = ?", id);
    if (row.kind === "booking") this.bumpCounter(row.status, -1);
    return parseClaims(row.claims);
  }

  /**
   * Moves a booking to `next`'s time, person and claims, in the caller's transaction: the old span
   * stops holding and the new one starts in the same step.
   */
  move(next: BookingRecord, blocked: Span, claims: ClaimRef[]): void {
    this.sql.exec(
      `UPDATE bookings SET blocked_start_ms = ?, blocked_end_ms = ?, version = ?, record = ?, provider_id = ?, claims = ?
       WHERE id = ?`,
      blocked.start,
      blocked.end,
      next.version,
      JSON.stringify(next),
      next.providerId ?? null,
      JSON.stringify(claims),
      next.id,
    );
    this.widen(blocked);
  }

  /**
   * Remembers the longest blocked span, which bounds how far back an overlap can begin: every row
   * that holds a seat (bookings, moves, holds) must pass through here.
   */
  widen(blocked: Span): void {
    if (blocked.end - blocked.start > this.maxBlockedMs) {
      this.maxBlockedMs = blocked.end - blocked.start;
      this.sql.exec("UPDATE meta SET value = ? WHERE key = 'max_blocked_ms'", this.maxBlockedMs);
    }
  }

  /** Tentative rows whose deadline passed: their request died between its transactions. */
  expiredTentative(now: number): ExpiredRow[] {
    return this.sql
      .exec<{ id: string; kind: string; businessId: string; claims: string }>(
        `SELECT id, kind, json_extract(record, '$.businessId') AS businessId, claims FROM bookings
         WHERE tentative_until_ms IS NOT NULL AND tentative_until_ms <= ?`,
        now,
      )
      .toArray()
      .map((row) => ({ ...row, claims: parseClaims(row.claims) }));
  }

  /** The earliest tentative deadline, or null. */
  nextTentativeDeadline(): number | null {
    return this.sql
      .exec<{ at: number | null }>(
        "SELECT min(tentative_until_ms) AS at FROM bookings WHERE tentative_until_ms IS NOT NULL",
      )
      .one().at;
  }

  /** The claims a row holds in other calendars. */
  claimsOf(id: string): ClaimRef[] {
    const row = this.sql.exec<{ claims: string }>("SELECT claims FROM bookings WHERE id = ?", id).toArray()[0];
    return parseClaims(row?.claims ?? null);
  }

  /** Links a row to the customer D1 resolved for its e-mail (no new version: D1 already agrees). */
  linkCustomer(id: string, customerId: string): void {
    const record = this.load(id);
    if (record.customerId === customerId) return;
    this.sql.exec("UPDATE bookings SET record = ? WHERE id = ?", JSON.stringify({ ...record, customerId }), id);
  }

  find(id: string): BookingRecord | undefined {
    const row = this.sql.exec<{ record: string }>("SELECT record FROM bookings WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.record) as BookingRecord) : undefined;
  }

  load(id: string): BookingRecord {
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
