/**
 * The outbox: bookings committed in the calendar whose latest version D1 may not have yet.
 * One row per booking (the latest version wins); a row leaves only once D1 has that version.
 * Writing a row arms the object's alarm in the same synchronous step, so a reset between the
 * commit and the D1 write (which the request then awaits) cannot leave a row without an alarm.
 */
import type { AlarmClock } from "../alarm-clock";
import { retryDelayMs } from "../alarm-clock";

/**
 * The alarm a new row arms is this far ahead: past the request's own D1 write (5 s timeout), so a
 * healthy write needs no alarm, and soon enough that a row orphaned by a reset lands within it.
 */
export const OUTBOX_ALARM_GRACE_MS = 10_000;

/** An entry waiting longer than this is reported by reconciliation as inconsistent. */
export const OUTBOX_STUCK_AFTER_MS = 60_000;

/** Outcome of one D1 write attempt for a batch of outbox entries. */
export type PersistOutcome =
  | { ok: true; customerIds: Map<string, string>; eventsWithDeliveries: Set<string>; bookmark?: string | null }
  | { ok: false; error: string };

/** One booking waiting for D1. */
export type OutboxEntry = { booking_id: string; version: number; attempts: number };

/** The outbox rows of one calendar. Every method runs inside the caller's transaction. */
export class Outbox {
  constructor(
    private readonly sql: SqlStorage,
    private readonly alarm: AlarmClock,
  ) {}

  /**
   * Queues `version` of a booking for D1, due at once, and makes sure the alarm fires within
   * the grace period (an entry already waiting keeps its time of queueing and its backoff).
   */
  enqueue(bookingId: string, version: number, now: number): void {
    this.sql.exec(
      `INSERT INTO outbox (booking_id, version, attempts, next_attempt_ms, queued_ms) VALUES (?, ?, 0, ?, ?)
       ON CONFLICT (booking_id) DO UPDATE
       SET version = excluded.version, next_attempt_ms = min(next_attempt_ms, excluded.next_attempt_ms)`,
      bookingId,
      version,
      now,
      now,
    );
    this.alarm.arm(now + OUTBOX_ALARM_GRACE_MS);
  }

  /** Up to `limit` entries whose next attempt is due, oldest first. */
  due(now: number, limit: number): OutboxEntry[] {
    return this.sql
      .exec<OutboxEntry>(
        "SELECT booking_id, version, attempts FROM outbox WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms, booking_id LIMIT ?",
        now,
        limit,
      )
      .toArray();
  }

  countDue(now: number): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE next_attempt_ms <= ?", now).one().n;
  }

  /** D1 has `entry.version`: a change made while D1 was being written has a higher one and stays queued. */
  written(entry: OutboxEntry): void {
    this.sql.exec("DELETE FROM outbox WHERE booking_id = ? AND version <= ?", entry.booking_id, entry.version);
  }

  /** The write failed: back off before the next attempt. */
  failed(entry: OutboxEntry, now: number, error: string): void {
    this.sql.exec(
      "UPDATE outbox SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE booking_id = ?",
      now + retryDelayMs(entry.attempts + 1),
      error.slice(0, 500),
      entry.booking_id,
    );
  }

  /** Ids of every booking still waiting, by id. */
  pendingIds(): string[] {
    return this.sql
      .exec<{ booking_id: string }>("SELECT booking_id FROM outbox ORDER BY booking_id")
      .toArray()
      .map((r) => r.booking_id);
  }

  /** Ids of the entries queued before `before` (waiting too long), by id. */
  queuedBefore(before: number): string[] {
    return this.sql
      .exec<{ booking_id: string }>("SELECT booking_id FROM outbox WHERE queued_ms < ? ORDER BY booking_id", before)
      .toArray()
      .map((r) => r.booking_id);
  }

  /** Every entry is due now (the writes that waited on a tenant's move go at once, not after their backoff). */
  dueNow(now: number): void {
    this.sql.exec("UPDATE outbox SET next_attempt_ms = ? WHERE next_attempt_ms > ?", now, now);
  }

  /** When the earliest entry is due, or null when the outbox is empty. */
  nextAttemptMs(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM outbox").one().at;
  }
}
