/**
 * Reservations: the calendar's `bookings` rows, each a durable row that may hold capacity.
 * A row holds a seat while its status is one of `HOLDING_STATUSES`; capacity checks count only
 * those rows, with one range scan of a partial index, so their cost grows with the overlapping
 * rows, not with everything the calendar ever stored.
 */
import type { BookingStatus } from "../db/schema";
import type { StoredBooking } from "./persist";
import type { Span } from "./rules";
import type { CalendarCounters } from "./types";

/**
 * Statuses whose rows take a seat (README, Behaviour). The partial index
 * `bookings_active_blocked` and the overlap query spell the same list.
 */
export const HOLDING_STATUSES = ["PENDING", "CONFIRMED"] as const satisfies readonly BookingStatus[];

/** Whether a row in `status` takes a seat. */
export const holdsCapacity = (status: BookingStatus) => (HOLDING_STATUSES as readonly BookingStatus[]).includes(status);

/** A row's blocked span as stored: `[s, e)` in epoch milliseconds. */
export type HeldSpan = { s: number; e: number };

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
  holdingOverlapping(span: Span): HeldSpan[] {
    return this.sql
      .exec<HeldSpan>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?`,
        span.start - this.maxBlockedMs - 1,
        span.end,
        span.start,
      )
      .toArray();
  }

  /** Stores a new row over `blocked`; it holds a seat from this transaction on if its status does. */
  insert(record: StoredBooking, blocked: Span): void {
    this.sql.exec(
      "INSERT INTO bookings (id, blocked_start_ms, blocked_end_ms, status, version, record) VALUES (?, ?, ?, ?, ?, ?)",
      record.id,
      blocked.start,
      blocked.end,
      record.status,
      record.version,
      JSON.stringify(record),
    );
    this.bumpCounter(record.status, 1);
    if (blocked.end - blocked.start > this.maxBlockedMs) {
      this.maxBlockedMs = blocked.end - blocked.start;
      this.sql.exec("UPDATE meta SET value = ? WHERE key = 'max_blocked_ms'", this.maxBlockedMs);
    }
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

  /** Every row's id, status and version, by id. */
  list(): { id: string; status: BookingStatus; version: number }[] {
    return this.sql
      .exec<{ id: string; status: BookingStatus; version: number }>(
        "SELECT id, status, version FROM bookings ORDER BY id",
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
