/**
 * Audit records are kept 400 days. The nightly cron drops older ones oldest first through the
 * `at` index, in batches of 500 and at most 20 batches a shard a night: a backlog (a shard
 * restored from long ago) drains over several nights instead of one long run.
 */

/** How long an audit record is kept (docs/api-behaviour.md, "Audit"). */
export const AUDIT_DAYS = 400;
const BATCH = 500;
const MAX_BATCHES = 20;

/** Drops up to 10,000 audit records older than the retention; answers how many went. */
export async function pruneAudit(db: D1Database, now = Date.now(), batches = MAX_BATCHES): Promise<number> {
  const before = new Date(now - AUDIT_DAYS * 86_400_000).toISOString();
  let removed = 0;
  for (let i = 0; i < batches; i++) {
    const { meta } = await db
      .prepare(
        `DELETE FROM audit_events WHERE id IN (
           SELECT id FROM audit_events WHERE at < ?1 ORDER BY at LIMIT ${BATCH})`,
      )
      .bind(before)
      .run();
    removed += meta.changes;
    if (meta.changes < BATCH) break;
  }
  return removed;
}
