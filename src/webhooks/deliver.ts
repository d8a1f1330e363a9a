/**
 * The webhook queue consumer: signs and POSTs each open delivery of an event, records every
 * attempt, sends the event's messages to customers (src/messages/send.ts), and lets the queue
 * retry with backoff. Dead-lettered messages mark their deliveries dead and their e-mails failed;
 * an endpoint is disabled only after several dead deliveries in a row, with the reason.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DeliveryMessage } from "../audit/events";
import { createDb, type Database } from "../db/client";
import { businesses, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { raiseFailure } from "../messages/alert";
import { giveUp } from "../messages/lease";
import type { Mailer } from "../messages/mailer";
import { sendMessages } from "../messages/send";
import { batchesByShard } from "../shards/every";
import { businessEnv, shardOfEnv } from "../shards/shards";
import { signedHeaders } from "./signing";

/** Seconds to wait before retry n (after the n-th failed try); the queue allows max_retries = 6. */
export const retryDelaysSeconds = [10, 60, 300, 1_800, 7_200, 21_600];
/** Dead-lettered deliveries in a row after which an endpoint is disabled. */
export const disableAfterDeadDeliveries = 5;
const TIMEOUT_MS = 10_000;

type OpenDelivery = {
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  eventId: string;
  payload: string;
  attempts: number;
  businessId: string;
  linkKeyVersion: number;
};

async function openDeliveries(db: Database, message: DeliveryMessage): Promise<OpenDelivery[]> {
  return db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      eventId: webhookEvents.id,
      payload: webhookEvents.payload,
      attempts: webhookDeliveries.attempts,
      businessId: webhookEvents.businessId,
      linkKeyVersion: businesses.linkKeyVersion,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(businesses, eq(businesses.id, webhookEvents.businessId))
    .where(
      and(
        eq(webhookDeliveries.eventId, message.eventId),
        message.deliveryId ? eq(webhookDeliveries.id, message.deliveryId) : undefined,
        inArray(webhookDeliveries.status, ["pending", "failed"]),
        eq(webhookEndpoints.status, "active"),
        sql`${webhookEndpoints.deletedAt} IS NULL`,
      ),
    );
}

/** One signed POST; the attempt is recorded whatever happens. Returns whether it succeeded. */
async function attempt(db: Database, delivery: OpenDelivery): Promise<boolean> {
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(delivery.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "booking-api-webhooks/1",
        ...(await signedHeaders(delivery.secret, delivery.eventId, delivery.payload, started)),
      },
      body: delivery.payload,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "manual",
    });
    statusCode = res.status;
    await res.body?.cancel();
    if (!res.ok) error = `HTTP ${res.status}`;
  } catch (e) {
    error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  const ok = error === null;
  const at = new Date(started).toISOString();
  const record = [
    db.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attempt: delivery.attempts + 1,
      at,
      statusCode,
      error,
      durationMs: Date.now() - started,
    }),
    db
      .update(webhookDeliveries)
      .set({
        status: ok ? "succeeded" : "failed",
        attempts: delivery.attempts + 1,
        lastStatusCode: statusCode,
        lastError: error,
        updatedAt: at,
      })
      .where(eq(webhookDeliveries.id, delivery.id)),
  ] as const;
  if (ok) {
    await db.batch([
      ...record,
      db.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(eq(webhookEndpoints.id, delivery.endpointId)),
    ]);
  } else await db.batch(record);
  return ok;
}

/**
 * Turns a stored event's payload into the one sent (the manage link is added at sending time:
 * the calendar that records the event holds no link key). Given by the Worker's entry.
 */
export type PresentPayload = (
  env: Env,
  event: { payload: string; businessId: string; linkKeyVersion: number },
) => Promise<string>;

/** Consumer of the webhook queue: the event's deliveries, then its messages (a delivery sent again by hand: that one only). */
export async function deliverWebhooks(
  batch: MessageBatch<DeliveryMessage>,
  env: Env,
  present: PresentPayload,
  mailer: Mailer,
): Promise<void> {
  // The Worker's own env: each message on the shard it names.
  if (shardOfEnv(env) === undefined) {
    for (const [shard, part] of await batchesByShard(env, batch))
      await deliverWebhooks(part, businessEnv(env, shard), present, mailer);
    return;
  }
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    let failed = false;
    const deliveries = await openDeliveries(db, message.body);
    // Every delivery of a message carries the same event: presented once.
    const payload = deliveries[0] ? await present(env, deliveries[0]) : "";
    for (const delivery of deliveries) {
      if (!(await attempt(db, { ...delivery, payload }))) failed = true;
    }
    if (!message.body.deliveryId && (await sendMessages(env, mailer, message.body.eventId)).retry) failed = true;
    if (!failed) message.ack();
    else {
      const delay = retryDelaysSeconds[Math.min(message.attempts, retryDelaysSeconds.length) - 1] ?? 10;
      message.retry({ delaySeconds: delay });
    }
  }
}

/** Consumer of the dead-letter queue: the queue gave up on these deliveries. */
export async function deadLetterWebhooks(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  if (shardOfEnv(env) === undefined) {
    for (const [shard, part] of await batchesByShard(env, batch))
      await deadLetterWebhooks(part, businessEnv(env, shard));
    return;
  }
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const now = new Date().toISOString();
    for (const delivery of await openDeliveries(db, message.body)) {
      await db.batch([
        db
          .update(webhookDeliveries)
          .set({ status: "dead", updatedAt: now })
          .where(eq(webhookDeliveries.id, delivery.id)),
        db
          .update(webhookEndpoints)
          .set({
            consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
            updatedAt: now,
            status: sql`CASE WHEN ${webhookEndpoints.consecutiveFailures} + 1 >= ${disableAfterDeadDeliveries} THEN 'disabled' ELSE ${webhookEndpoints.status} END`,
            disabledReason: sql`CASE WHEN ${webhookEndpoints.consecutiveFailures} + 1 >= ${disableAfterDeadDeliveries}
              THEN ${`Disabled after ${disableAfterDeadDeliveries} deliveries in a row failed every retry; see its deliveries.`}
              ELSE ${webhookEndpoints.disabledReason} END`,
          })
          .where(eq(webhookEndpoints.id, delivery.endpointId)),
      ]);
    }
    for (const id of await giveUp(env.DB, message.body.eventId, Date.now())) {
      await raiseFailure(env, { messageId: id, reason: "gave_up" }, Date.now());
    }
    message.ack();
  }
}
