/**
 * The visits this calendar was the entry of: each one's bookings as it answered them, so a
 * retry under the same `Idempotency-Key` gets the same answer (kept 24 hours, prune.ts).
 */
import type { Booking } from "../../domain/booking";

/** Visit answers of one calendar. Every method runs inside the caller's transaction. */
export class VisitRecords {
  constructor(private readonly sql: SqlStorage) {}

  remember(id: string, bookings: Booking[], now: number): void {
    this.sql.exec(
      "INSERT INTO visits (id, bookings, created_ms) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
      id,
      JSON.stringify(bookings),
      now,
    );
  }

  /** The bookings a visit was answered with, or undefined. */
  find(id: string): Booking[] | undefined {
    const row = this.sql.exec<{ bookings: string }>("SELECT bookings FROM visits WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.bookings) as Booking[]) : undefined;
  }
}
