import { lt } from "drizzle-orm";
import { pruneSignIns } from "./access/member-sessions";
import { forwardAudit } from "./audit/forward";
import { pruneAudit } from "./audit/prune";
import { everyService, reconcile, reconcileClaimed, serviceCalendarOf } from "./calendar";
import { createDb } from "./db/client";
import { idempotencyKeys } from "./db/schema";
import { recountLists } from "./lists/counts";
import { onEveryShard } from "./shards/every";
import { directoryOf } from "./shards/shards";
import { pruneWebhookHistory } from "./webhooks/prune";

/** The nightly cron: the pass below over every shard, each with its tenants' calendars. */
export async function nightly(env: Env): Promise<void> {
  // The directory's own: members' sign-in links and sessions that no longer count.
  const signIns = await pruneSignIns(env);
  console.log(JSON.stringify({ level: "info", msg: "pruned sign-ins", ...signIns }));
  await onEveryShard(env, (tenant, shard) => nightlyOf(tenant, shard));
}

/**
 * One shard's nightly pass: drop expired idempotency keys, and webhook history and audit records
 * past their retention (docs/api-behaviour.md), prune each calendar of bookings that can overlap nothing and of waitlist entries 30 days past their
 * slot, then reconcile (the calendars with D1, the lists' kept counts with their rows) and log
 * what differs.
 */
async function nightlyOf(env: Env, shard: number): Promise<void> {
  const db = createDb(env.DB);
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date().toISOString()));
  const deliveries = await pruneWebhookHistory(env.DB);
  const auditEvents = await pruneAudit(env.DB);
  // Member changes' records a reset left in the directory (audit/forward.ts): at most 1,000 a night.
  let forwarded = 0;
  for (let i = 0, moved = 1; i < 20 && moved > 0; i++) {
    moved = await forwardAudit(createDb(directoryOf(env)), db, { onShard: shard });
    forwarded += moved;
  }
  const pruned = { calendarBookings: 0, waitlistEntries: 0 };
  for await (const service of everyService(db)) {
    const { bookings, waitlist } = await serviceCalendarOf(env, service.businessId, service.id).prune();
    pruned.calendarBookings += bookings;
    pruned.waitlistEntries += waitlist;
  }
  console.log(
    JSON.stringify({
      level: "info",
      msg: "pruned",
      shard,
      ...pruned,
      webhookDeliveries: deliveries,
      auditEvents,
      auditForwarded: forwarded,
    }),
  );
  const report = await reconcile(env);
  const log = report.consistent ? console.log : console.error;
  log(JSON.stringify({ level: report.consistent ? "info" : "error", msg: "reconciliation", shard, ...report }));
  const drift = await recountLists(db);
  (drift.length === 0 ? console.log : console.error)(
    JSON.stringify({ level: drift.length === 0 ? "info" : "error", msg: "list counts recounted", shard, drift }),
  );
  const providers = await reconcileClaimed(env);
  (providers.consistent ? console.log : console.error)(
    JSON.stringify({
      level: providers.consistent ? "info" : "error",
      msg: "reconciliation of people and resources",
      shard,
      ...providers,
    }),
  );
}
