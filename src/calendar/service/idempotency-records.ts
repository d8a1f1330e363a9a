/**
 * The calendar's own record of the `Idempotency-Key`s it has served. D1 coordinates keys across
 * services; this record makes a replay safe even when D1's copy of the answer was never stored.
 */

import { toBooking } from "../../domain/booking";
import { IDEMPOTENCY_RETENTION_MS } from "../../domain/idempotency";
import type { CalendarResult } from "../types";
import type { Reservations } from "./reservations";

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

/**
 * The answer a command under `idempotency` already got here, if any: the same success again
 * (its booking as it stands now), or a refusal when the key was used for another request. A
 * command whose answer was lost (a reset, a timeout) is answered this way on its retry.
 */
export function priorAnswer(
  records: IdempotencyRecords,
  reservations: Reservations,
  idempotency: { key: string; requestHash: string } | undefined,
  now: number,
): CalendarResult | undefined {
  if (!idempotency) return undefined;
  const prior = records.lookup(idempotency.key, now);
  if (!prior) return undefined;
  if (prior.requestHash !== idempotency.requestHash) {
    return { ok: false, refusal: { code: "idempotency_key_reused", detail: "This key was used for another request." } };
  }
  const stored = reservations.load(prior.bookingId);
  return { ok: true, booking: toBooking(stored), version: stored.version, replayed: true };
}
