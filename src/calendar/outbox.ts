/**
 * The outbox: bookings committed in the calendar whose latest version D1 may not have yet.
 * One row per booking (the latest version wins); a row leaves only once D1 has that version.
 */

/** Outcome of one D1 write attempt for a batch of outbox entries. */
export type PersistOutcome =
  | { ok: true; customerIds: Map<string, string>; eventsWithDeliveries: Set<string> }
  | { ok: false; error: string };

/** Exponential backoff for D1 retries: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

/** One booking waiting for D1. */
export type OutboxEntry = { booking_id: string; version: number; attempts: number };

/** The outbox rows of one calendar. Every method runs inside the caller's transaction. */
export class Outbox {
  constructor(private readonly sql: SqlStorage) {}

  /** Queues `version` of a booking for D1, due at once. */
  enqueue(bookingId: string, version: number, now: number): void {
    this.sql.exec(
      `INSERT INTO outbox (booking_id, version, attempts, next_attempt_ms) VALUES (?, ?, 0, ?)
       ON CONFLICT (booking_id) DO UPDATE SET version = excluded.version`,
      bookingId,
      version,
      now,
    );
  }

  /** Up to `limit` entries whose next attempt is due, oldest first. */
  due(now: number, limit: number): OutboxEntry[] {
    return this.sql
      .exec<OutboxEntry>(
        "SELECT booking_id, version, attempts FROM outbox WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT ?",
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

  /** When the earliest entry is due, or null when the outbox is empty. */
  nextAttemptMs(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM outbox").one().at;
  }
}
