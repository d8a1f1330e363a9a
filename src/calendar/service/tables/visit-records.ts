/**
 * The visits this calendar was the entry of: each one's bookings as it answered them, so a
 * retry under the same `Idempotency-Key` gets the same answer (kept 24 hours, steps/prune.ts).
 */
import type { Booking } from "../../../types/booking";

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

  /** Rewrites a customer's details in the answers kept here (by customer id or e-mail). */
  rewrite(
    customerId: string,
    email: string,
    details: Pick<Booking, "customerName" | "customerEmail" | "customerPhone">,
    erase: boolean,
  ): void {
    const rows = this.sql
      .exec<{ id: string; bookings: string }>(
        "SELECT id, bookings FROM visits WHERE instr(bookings, ?) > 0 OR instr(lower(bookings), ?) > 0",
        customerId,
        email,
      )
      .toArray();
    for (const row of rows) {
      const bookings = (JSON.parse(row.bookings) as Booking[]).map((b) =>
        b.customerId === customerId || b.customerEmail.toLowerCase() === email
          ? { ...b, ...details, ...(erase ? { notes: null, answers: {}, cancellationReason: null } : {}) }
          : b,
      );
      this.sql.exec("UPDATE visits SET bookings = ? WHERE id = ?", JSON.stringify(bookings), row.id);
    }
  }

  /** The bookings a visit was answered with, or undefined. */
  find(id: string): Booking[] | undefined {
    const row = this.sql.exec<{ bookings: string }>("SELECT bookings FROM visits WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.bookings) as Booking[]) : undefined;
  }
}
