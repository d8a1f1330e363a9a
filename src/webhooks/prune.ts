/**
 * Webhook history is kept 30 days: attempts, deliveries and events older than that are dropped
 * by the nightly cron, oldest first, in bounded batches (each statement searches the
 * `created_at` indexes, never scans).
 */

/** How long delivery logs and events are kept (docs/api-behaviour.md, "Webhooks"). */
export const WEBHOOK_HISTORY_DAYS = 30;
const BATCH = 500;

/** Drops webhook history older than the retention; answers how many deliveries went. */
export async function pruneWebhookHistory(db: D1Database, now = Date.now()): Promise<number> {
  const before = new Date(now - WEBHOOK_HISTORY_DAYS * 86_400_000).toISOString();
  let deliveries = 0;
  for (;;) {
    const old = `SELECT id FROM webhook_deliveries WHERE created_at < ?1 ORDER BY created_at LIMIT ${BATCH}`;
    const [, removed] = await db.batch([
      db.prepare(`DELETE FROM webhook_attempts WHERE delivery_id IN (${old})`).bind(before),
      db.prepare(`DELETE FROM webhook_deliveries WHERE id IN (${old})`).bind(before),
    ]);
    const n = removed?.meta.changes ?? 0;
    deliveries += n;
    if (n < BATCH) break;
  }
  for (;;) {
    const { meta } = await db
      .prepare(
        `DELETE FROM webhook_events WHERE id IN (
           SELECT id FROM webhook_events e WHERE created_at < ?1
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
           ORDER BY created_at LIMIT ${BATCH})`,
      )
      .bind(before)
      .run();
    if (meta.changes < BATCH) break;
  }
  return deliveries;
}
