/**
 * The calendar's own record of the `Idempotency-Key`s it has served. D1 coordinates keys across
 * services; this record makes a replay safe even when D1's copy of the answer was never stored.
 */

import { IDEMPOTENCY_RETENTION_MS } from "../lib/idempotency-retention";

/** What a key was used for: the request's fingerprint and the booking it made. */
export type IdempotencyRecord = { requestHash: string; bookingId: string };

/** Idempotency records of one calendar. Every method runs inside the caller's transaction. */
export class IdempotencyRecords {
  constructor(private readonly sql: SqlStorage) {}

  /** The live record of `key`, after dropping expired ones. */
  lookup(key: string, now: number): IdempotencyRecord | undefined {
    this.sql.exec("DELETE FROM idempotency WHERE created_ms < ?", now - IDEMPOTENCY_RETENTION_MS);
    return this.sql
      .exec<IdempotencyRecord>(
        "SELECT request_hash AS requestHash, booking_id AS bookingId FROM idempotency WHERE key = ?",
        key,
      )
      .toArray()[0];
  }

  remember(key: string, record: IdempotencyRecord, now: number): void {
    this.sql.exec(
      "INSERT INTO idempotency (key, request_hash, booking_id, created_ms) VALUES (?, ?, ?, ?)",
      key,
      record.requestHash,
      record.bookingId,
      now,
    );
  }
}
