/**
 * What a calendar keeps: every booking that can still overlap a new one, and every row some
 * pending work refers to. A booking that ended more than two days ago can overlap nothing (no
 * booking starts in the past) and no live Idempotency-Key can name it (keys live 24 hours and
 * bookings are made before they end), so the nightly cron drops it here; D1 keeps it for good.
 */
export const CALENDAR_KEEPS_PAST_MS = 2 * 86_400_000;

/** Drops rows past the horizon; inside the caller's transaction. Answers how many bookings went. */
export function pruneCalendar(sql: SqlStorage, now: number): number {
  const before = now - CALENDAR_KEEPS_PAST_MS;
  const { rowsWritten } = sql.exec(
    `DELETE FROM bookings WHERE blocked_end_ms < ? AND kind = 'booking' AND tentative_until_ms IS NULL
       AND id NOT IN (SELECT booking_id FROM outbox)`,
    before,
  );
  sql.exec("DELETE FROM holds WHERE status != 'HELD' AND expires_ms < ?", before);
  return rowsWritten;
}
