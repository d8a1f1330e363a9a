/**
 * The calendar's own record of the `Idempotency-Key`s it has served, and the one place a command's
 * key is decided inside the calendar: a new request, the replay of one that already committed
 * here (its answer may have been lost to a reset or a timeout), or a key reused for another
 * request. D1 coordinates keys across services (lib/idempotency.ts); this record makes a replay
 * safe even when D1's copy of the answer was never stored. Every method runs inside the caller's
 * transaction.
 */

import { IDEMPOTENCY_RETENTION_MS } from "../../../lib/idempotency";
import { toBooking } from "../../../types/booking";
import type { CalendarRefusal, CalendarResult, IdempotencyKey } from "../../types";
import type { Reservations } from "./reservations";

/** What a key was used for: the request's fingerprint and what it made (a booking, or a visit's or series' id). */
type IdempotencyRecord = { requestHash: string; bookingId: string };

/** What a key decided before: the id of what its request made, or the refusal of a key reused. */
export type Prior = { made: string } | { refusal: CalendarRefusal };

const reused: CalendarRefusal = { code: "idempotency_key_reused", detail: "This key was used for another request." };

/** Idempotency records of one calendar. */
export class IdempotencyRecords {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * What `key` decided here before, if anything (expired records dropped first). `about`: the one
   * booking the command acts on (a status change): a record that made another is a reuse too.
   */
  prior(key: IdempotencyKey | undefined, now: number, about?: string): Prior | undefined {
    if (!key) return undefined;
    this.sql.exec("DELETE FROM idempotency WHERE created_ms < ?", now - IDEMPOTENCY_RETENTION_MS);
    const record = this.sql
      .exec<IdempotencyRecord>(
        "SELECT request_hash AS requestHash, booking_id AS bookingId FROM idempotency WHERE key = ?",
        key.key,
      )
      .toArray()[0];
    if (!record) return undefined;
    if (record.requestHash !== key.requestHash || (about !== undefined && record.bookingId !== about)) {
      return { refusal: reused };
    }
    return { made: record.bookingId };
  }

  /** Remembers that the request under `key` made `id`; nothing without a key. */
  remember(key: IdempotencyKey | undefined, id: string, now: number): void {
    if (!key) return;
    this.sql.exec(
      "INSERT INTO idempotency (key, request_hash, booking_id, created_ms) VALUES (?, ?, ?, ?)",
      key.key,
      key.requestHash,
      id,
      now,
    );
  }
}

/**
 * The answer a booking command under `key` already got here, if any: the same success again (its
 * booking as it stands now), or the refusal of a key used for another request.
 */
export function priorAnswer(
  tables: { idempotency: IdempotencyRecords; reservations: Reservations },
  key: IdempotencyKey | undefined,
  now: number,
  about?: string,
): CalendarResult | undefined {
  const prior = tables.idempotency.prior(key, now, about);
  if (!prior) return undefined;
  if ("refusal" in prior) return { ok: false, refusal: prior.refusal };
  const stored = tables.reservations.load(prior.made);
  return { ok: true, booking: toBooking(stored), version: stored.version, replayed: true };
}
