/**
 * Reminders: one row per active booking and offset, due at its start minus the offset. The
 * object's one alarm is armed at the earliest due row, however many there are; when it fires,
 * each due row becomes a `booking.reminder` event in the same transaction that deletes it, so a
 * reset before that commit leaves the row to fire again and a reset after it leaves the event to
 * the relay (sent at least once, always with the same event id).
 */
import { type BookingRecord, holdsCapacity } from "../../../types/booking";
import type { AlarmClock } from "../../alarm-clock";
import type { EventRelay } from "../../d1/event-relay";
import type { Reservations } from "./reservations";

/** The most reminders one alarm turns into events; the rest wait for the next run, moments later. */
const PER_RUN = 500;

export class Reminders {
  constructor(
    private readonly sql: SqlStorage,
    private readonly alarm: AlarmClock,
  ) {}

  /**
   * Plans a booking's reminders anew (after it is made, moved or its service's reminders
   * change): one per offset still ahead of `now`; none for a booking that holds no seat.
   */
  plan(booking: BookingRecord, offsets: readonly number[], now: number): void {
    this.drop(booking.id);
    if (!holdsCapacity(booking.status)) return;
    const start = Date.parse(booking.startTime);
    for (const offset of new Set(offsets)) {
      const due = start - offset * 60_000;
      // Already past when planned: skipped, not sent late.
      if (due <= now) continue;
      this.sql.exec(
        "INSERT INTO reminders (booking_id, offset_minutes, due_ms) VALUES (?, ?, ?)",
        booking.id,
        offset,
        due,
      );
      this.alarm.arm(due);
    }
  }

  /**
   * The service's reminders changed: every upcoming booking that holds a seat gets the new ones
   * (those already past are skipped, as for a new booking). Inside the caller's transaction.
   */
  replanUpcoming(reservations: Reservations, offsets: readonly number[], now: number): void {
    const upcoming = this.sql
      .exec<{ id: string }>(
        `SELECT id FROM bookings
           WHERE kind = 'booking' AND tentative_until_ms IS NULL AND status IN ('PENDING', 'CONFIRMED')
             AND blocked_end_ms > ?`,
        now,
      )
      .toArray();
    for (const { id } of upcoming) {
      const booking = reservations.find(id);
      if (booking) this.plan(booking, offsets, now);
    }
  }

  /** Drops a booking's reminders (cancelled, or done). */
  drop(bookingId: string): void {
    this.sql.exec("DELETE FROM reminders WHERE booking_id = ?", bookingId);
  }

  /** When the next reminder is due, or null. */
  nextDue(): number | null {
    return this.sql.exec<{ due: number | null }>("SELECT min(due_ms) AS due FROM reminders").one().due;
  }

  /**
   * Turns every reminder due by `now` into its event (for a booking still holding a seat) and
   * deletes it. Inside the caller's transaction.
   */
  sendDue(reservations: Reservations, events: EventRelay, now: number): void {
    const due = this.sql
      .exec<{ booking_id: string; offset_minutes: number }>(
        "SELECT booking_id, offset_minutes FROM reminders WHERE due_ms <= ? ORDER BY due_ms LIMIT ?",
        now,
        PER_RUN,
      )
      .toArray();
    for (const row of due) {
      const booking = reservations.find(row.booking_id);
      if (booking && holdsCapacity(booking.status)) {
        events.raiseReminder(booking, row.offset_minutes, new Date(now).toISOString());
      }
      this.sql.exec(
        "DELETE FROM reminders WHERE booking_id = ? AND offset_minutes = ?",
        row.booking_id,
        row.offset_minutes,
      );
    }
  }
}
