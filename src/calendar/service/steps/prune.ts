/**
 * The nightly prune: a calendar drops the rows of bookings past the retention (retention.ts), and
 * waitlist entries 30 days after their slot ended.
 */
import { IDEMPOTENCY_RETENTION_MS } from "../../../lib/idempotency";
import { TOMBSTONE_RETENTION_MS } from "../../claims/claim-store";
import { CALENDAR_KEEPS_PAST_MS, WAITLIST_KEEPS_PAST_MS } from "../../retention";

/** Drops rows past the horizon; inside the caller's transaction. Answers how many bookings and entries went. */
export function pruneCalendar(sql: SqlStorage, now: number): { bookings: number; waitlist: number } {
  const before = now - CALENDAR_KEEPS_PAST_MS;
  // Counted by what it returns: the rows its triggers write (limits/storage.ts) are written too.
  const bookings = sql
    .exec(
      `DELETE FROM bookings WHERE blocked_end_ms < ? AND kind = 'booking' AND tentative_until_ms IS NULL
         AND id NOT IN (SELECT booking_id FROM outbox) RETURNING id`,
      before,
    )
    .toArray().length;
  sql.exec("DELETE FROM seat_counts WHERE n = 0");
  sql.exec("DELETE FROM holds WHERE status != 'HELD' AND expires_ms < ?", before);
  // Reminders of bookings that are gone (none is due after its booking's start, so none is lost).
  sql.exec("DELETE FROM reminders WHERE booking_id NOT IN (SELECT id FROM bookings)");
  sql.exec("DELETE FROM released_claims WHERE released_ms < ?", now - TOMBSTONE_RETENTION_MS);
  sql.exec("DELETE FROM visits WHERE created_ms < ?", now - IDEMPOTENCY_RETENTION_MS);
  // An offer's hold ends within minutes of a slot still ahead, so every entry this old has ended.
  const waitlist = sql.exec("DELETE FROM waitlist WHERE end_ms < ?", now - WAITLIST_KEEPS_PAST_MS).rowsWritten;
  return { bookings, waitlist };
}
