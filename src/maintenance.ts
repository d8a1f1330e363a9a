import { lt } from "drizzle-orm";
import { reconcileProviders } from "./calendar/provider/reconcile";
import { reconcile } from "./calendar/reconcile";
import { createDb } from "./db/client";
import { idempotencyKeys } from "./db/schema";

/** The nightly cron: drop expired idempotency keys, then reconcile and log what differs. */
export async function nightly(env: Env): Promise<void> {
  await createDb(env.DB).delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date().toISOString()));
  const report = await reconcile(env);
  const log = report.consistent ? console.log : console.error;
  log(JSON.stringify({ level: report.consistent ? "info" : "error", msg: "reconciliation", ...report }));
  const people = await reconcileProviders(env);
  (people.consistent ? console.log : console.error)(
    JSON.stringify({ level: people.consistent ? "info" : "error", msg: "provider reconciliation", ...people }),
  );
}
