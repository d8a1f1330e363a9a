/**
 * The outbox of booking events to write into the person's calendars (`writeBookings`): one row
 * per calendar and booking with the event's wanted times (none: delete it), a version raised by
 * every change, the version last written and the member's ETag. It follows the person's claims:
 * a booking's event shows its newest live claim (a move claims anew before the old claim goes), and
 * goes once the booking holds none. Every method runs inside the caller's transaction.
 */
import { retryDelayMs } from "../alarm-clock";

/** A row of `booking_events`; `start_ms` null: the event is to be deleted. */
export type BookingEventRow = {
  calendar_id: string;
  booking_id: string;
  service_id: string;
  start_ms: number | null;
  end_ms: number | null;
  version: number;
  written_version: number;
  etag: string | null;
  attempts: number;
  next_attempt_ms: number | null;
  last_error: string | null;
};

/** What a write attempt found. */
export type WriteResult =
  | { kind: "written"; etag: string | null }
  | { kind: "conflict"; etag: string | null }
  | { kind: "failed"; error: string };

/** A booking's live claim (no expiry) that its event shows. */
type LiveClaim = { service_id: string; start_ms: number; end_ms: number };

/** How long a written event's row is kept after its booking ended (the event stays in the calendar). */
const KEEP_AFTER_END_MS = 2 * 86_400_000;

export class BookingWrites {
  constructor(private readonly sql: SqlStorage) {}

  /** The booking a claim belongs to: the one a hold's claim became, else the claim id up to its first dot. */
  bookingOf(claimId: string): string {
    const row = this.sql
      .exec<{ booking_id: string }>("SELECT booking_id FROM claim_bookings WHERE claim_id = ?", claimId)
      .toArray()[0];
    return row?.booking_id ?? claimId.split(".")[0] ?? claimId;
  }

  /** Remembers that a (hold's) claim now belongs to this booking. */
  remember(claimId: string, bookingId: string): void {
    if (claimId === bookingId) return;
    this.sql.exec(
      "INSERT INTO claim_bookings (claim_id, booking_id) VALUES (?, ?) ON CONFLICT (claim_id) DO NOTHING",
      claimId,
      bookingId,
    );
  }

  /** The booking's newest live claim without an expiry: its own id, a move's (`{id}.m…`) or a hold's that became it. */
  private liveClaim(bookingId: string): LiveClaim | undefined {
    return this.sql
      .exec<LiveClaim>(
        `SELECT service_id, start_ms, end_ms FROM claims
         WHERE expires_ms IS NULL AND (claim_id = ? OR (claim_id > ? AND claim_id < ?)
           OR claim_id IN (SELECT claim_id FROM claim_bookings WHERE booking_id = ?))
         ORDER BY created_ms DESC, claim_id DESC LIMIT 1`,
        bookingId,
        `${bookingId}.`,
        `${bookingId}/`,
        bookingId,
      )
      .toArray()[0];
  }

  /** Brings a booking's event in each writing calendar in line with its claims; owes a write where it changed. */
  refresh(bookingId: string, calendarIds: readonly string[], now: number): void {
    if (calendarIds.length === 0) return;
    const live = this.liveClaim(bookingId);
    for (const calendarId of calendarIds) {
      const row = this.find(calendarId, bookingId);
      if (live) {
        if (row && row.start_ms === live.start_ms && row.end_ms === live.end_ms) continue;
        this.sql.exec(
          `INSERT INTO booking_events (calendar_id, booking_id, service_id, start_ms, end_ms, version, next_attempt_ms)
           VALUES (?, ?, ?, ?, ?, 1, ?)
           ON CONFLICT (calendar_id, booking_id) DO UPDATE SET service_id = excluded.service_id,
             start_ms = excluded.start_ms, end_ms = excluded.end_ms, version = version + 1,
             attempts = 0, next_attempt_ms = excluded.next_attempt_ms`,
          calendarId,
          bookingId,
          live.service_id,
          live.start_ms,
          live.end_ms,
          now,
        );
      } else if (row && row.start_ms !== null && row.end_ms !== null && row.end_ms <= now) {
        // Ended (COMPLETED, NO_SHOW, pruned): its event stays in the calendar as history.
        this.sql.exec("DELETE FROM booking_events WHERE calendar_id = ? AND booking_id = ?", calendarId, bookingId);
      } else if (row && row.start_ms !== null) {
        this.sql.exec(
          `UPDATE booking_events SET start_ms = NULL, version = version + 1, attempts = 0, next_attempt_ms = ?
           WHERE calendar_id = ? AND booking_id = ?`,
          now,
          calendarId,
          bookingId,
        );
      }
    }
  }

  /** Owes a newly connected calendar the event of every booking of the person still to end. */
  enqueueAll(calendarId: string, now: number): void {
    const bookings = this.sql
      .exec<{ claim_id: string }>("SELECT claim_id FROM claims WHERE expires_ms IS NULL AND end_ms > ?", now)
      .toArray()
      .map((r) => this.bookingOf(r.claim_id));
    for (const bookingId of new Set(bookings)) this.refresh(bookingId, [calendarId], now);
  }

  find(calendarId: string, bookingId: string): BookingEventRow | undefined {
    return this.sql
      .exec<BookingEventRow>(
        "SELECT * FROM booking_events WHERE calendar_id = ? AND booking_id = ?",
        calendarId,
        bookingId,
      )
      .toArray()[0];
  }

  /** Up to `limit` writes due now, oldest due first. */
  due(now: number, limit: number): BookingEventRow[] {
    return this.sql
      .exec<BookingEventRow>(
        "SELECT * FROM booking_events WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT ?",
        now,
        limit,
      )
      .toArray();
  }

  /**
   * Records an attempt made for `version`: written (done, unless the booking changed meanwhile, or
   * gone for a delete), a conflict (the member's ETag as it is now; tried again at once), or a
   * failure (tried again with backoff).
   */
  settle(row: BookingEventRow, result: WriteResult, now: number): void {
    const key = [row.calendar_id, row.booking_id] as const;
    const current = this.find(...key);
    if (!current) return;
    if (result.kind === "failed") {
      this.sql.exec(
        `UPDATE booking_events SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ?
         WHERE calendar_id = ? AND booking_id = ?`,
        now + retryDelayMs(current.attempts + 1),
        result.error.slice(0, 500),
        ...key,
      );
      return;
    }
    const settled = result.kind === "written" && current.version === row.version;
    if (settled && row.start_ms === null) {
      this.sql.exec("DELETE FROM booking_events WHERE calendar_id = ? AND booking_id = ?", ...key);
      return;
    }
    // A conflict is tried again at once with the ETag it found, a few times, then with backoff.
    const retryAt = result.kind === "conflict" && current.attempts >= 3 ? now + retryDelayMs(current.attempts) : now;
    this.sql.exec(
      `UPDATE booking_events SET etag = ?, written_version = ?, attempts = ?, next_attempt_ms = ?, last_error = ?
       WHERE calendar_id = ? AND booking_id = ?`,
      result.etag,
      result.kind === "written" ? row.version : current.written_version,
      result.kind === "conflict" ? current.attempts + 1 : 0,
      settled ? null : retryAt,
      result.kind === "conflict" ? "The event was changed in the calendar; written again." : null,
      ...key,
    );
  }

  /** When the next write is due, or null. */
  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM booking_events").one().at;
  }

  /** Drops the rows of events written long after their booking ended (the events stay in the calendar). */
  prune(now: number): void {
    this.sql.exec("DELETE FROM booking_events WHERE next_attempt_ms IS NULL AND end_ms <= ?", now - KEEP_AFTER_END_MS);
    this.sql.exec(
      "DELETE FROM claim_bookings WHERE claim_id NOT IN (SELECT claim_id FROM claims) AND claim_id NOT IN (SELECT claim_id FROM tombstones)",
    );
  }

  /** The paths of the members this object wrote to a calendar: never read back as busy. */
  bookingIds(calendarId: string): Set<string> {
    return new Set(
      this.sql
        .exec<{ booking_id: string }>("SELECT booking_id FROM booking_events WHERE calendar_id = ?", calendarId)
        .toArray()
        .map((r) => r.booking_id),
    );
  }
}
