/**
 * The conflicts a person's calendar object found (docs/staff-calendars.md, "Conflicts"): one row
 * per booking and kind, open until cleared. Each change raises `version` (never below the clock,
 * so a row found again after it was cleared and dropped still outranks its old D1 copy) and owes
 * D1 a push; a cleared row goes once D1 has it. Every method runs inside the caller's transaction.
 */
import type { BookingConflict, ConflictKind } from "../../types/booking";
import { retryDelayMs } from "../alarm-clock";

/** A row of `conflicts`. */
export type ConflictRow = {
  booking_id: string;
  kind: ConflictKind;
  detected_ms: number;
  detail: string;
  cleared_ms: number | null;
  version: number;
  attempts: number;
};

/** The table, added to the connected calendars' migrations. */
export const conflictsMigration = `CREATE TABLE conflicts (
     booking_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     detected_ms INTEGER NOT NULL,
     detail TEXT NOT NULL,
     cleared_ms INTEGER,
     version INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_push_ms INTEGER,
     PRIMARY KEY (booking_id, kind)
   );
   CREATE INDEX conflicts_push ON conflicts (next_push_ms) WHERE next_push_ms IS NOT NULL;`;

/** A conflict as answers and webhooks show it. */
export const conflictOf = (row: Pick<ConflictRow, "kind" | "detected_ms" | "detail">): BookingConflict => ({
  kind: row.kind,
  detectedAt: new Date(row.detected_ms).toISOString(),
  detail: row.detail,
});

export class ConflictStore {
  constructor(private readonly sql: SqlStorage) {}

  /** The open conflicts of one kind, by booking. */
  open(kind: ConflictKind): Map<string, ConflictRow> {
    const rows = this.sql
      .exec<ConflictRow>("SELECT * FROM conflicts WHERE kind = ? AND cleared_ms IS NULL", kind)
      .toArray();
    return new Map(rows.map((r) => [r.booking_id, r]));
  }

  /** The open conflicts of one booking. */
  openOf(bookingId: string): ConflictRow[] {
    return this.sql
      .exec<ConflictRow>("SELECT * FROM conflicts WHERE booking_id = ? AND cleared_ms IS NULL", bookingId)
      .toArray();
  }

  /** Opens a conflict (new, or found again after it cleared); answers the row. */
  found(bookingId: string, kind: ConflictKind, detail: string, now: number): ConflictRow {
    this.sql.exec(
      `INSERT INTO conflicts (booking_id, kind, detected_ms, detail, version, next_push_ms) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (booking_id, kind) DO UPDATE SET detected_ms = excluded.detected_ms, detail = excluded.detail,
         cleared_ms = NULL, version = max(excluded.version, version + 1), attempts = 0, next_push_ms = excluded.next_push_ms`,
      bookingId,
      kind,
      now,
      detail,
      now,
      now,
    );
    return this.sql
      .exec<ConflictRow>("SELECT * FROM conflicts WHERE booking_id = ? AND kind = ?", bookingId, kind)
      .one();
  }

  /** Clears an open conflict; its push to D1 is owed. */
  clear(row: ConflictRow, now: number): void {
    this.sql.exec(
      `UPDATE conflicts SET cleared_ms = ?, version = max(?, version + 1), attempts = 0, next_push_ms = ?
       WHERE booking_id = ? AND kind = ?`,
      now,
      now,
      now,
      row.booking_id,
      row.kind,
    );
  }

  /** Up to `limit` pushes due now. */
  due(now: number, limit: number): ConflictRow[] {
    return this.sql
      .exec<ConflictRow>("SELECT * FROM conflicts WHERE next_push_ms <= ? ORDER BY next_push_ms LIMIT ?", now, limit)
      .toArray();
  }

  /** D1 has `row` at its version: nothing more owed unless it changed meanwhile; a cleared one goes. */
  pushed(row: ConflictRow): void {
    const key = [row.booking_id, row.kind, row.version] as const;
    this.sql.exec(
      "DELETE FROM conflicts WHERE booking_id = ? AND kind = ? AND version = ? AND cleared_ms IS NOT NULL",
      ...key,
    );
    this.sql.exec("UPDATE conflicts SET next_push_ms = NULL WHERE booking_id = ? AND kind = ? AND version = ?", ...key);
  }

  /** A push failed: tried again with backoff. */
  failed(row: ConflictRow, now: number): void {
    this.sql.exec(
      "UPDATE conflicts SET attempts = attempts + 1, next_push_ms = ? WHERE booking_id = ? AND kind = ? AND version = ?",
      now + retryDelayMs(row.attempts + 1),
      row.booking_id,
      row.kind,
      row.version,
    );
  }

  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_push_ms) AS at FROM conflicts").one().at;
  }
}
