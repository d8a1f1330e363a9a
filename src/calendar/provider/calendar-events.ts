/**
 * The person's calendar object's webhook events (`calendar.sync_failed`): recorded in the
 * transaction that starts an outage, then written to D1 with one delivery per subscribed
 * endpoint (the booking events' statements, so a replay is harmless) and put on the webhook queue
 * when it has a delivery; whatever fails waits here for the alarm.
 */

import { type BookingEvent, type DeliveryMessage, eventPayload, eventWrites } from "../../audit/events";
import { createDb } from "../../db/client";
import { bind, readBatch } from "../../db/prepared";
import { errorText } from "../../lib/api-error";
import { newId } from "../../lib/ids";
import { recordConflictMessages } from "../../messages/conflict-records";
import type { WebhookEventType } from "../../types/webhook";
import { retryDelayMs } from "../alarm-clock";

type EventRow = BookingEvent & { attempts: number };

export class CalendarEvents {
  constructor(private readonly sql: SqlStorage) {}

  /** Records an event, inside the caller's transaction. */
  raise(businessId: string, type: WebhookEventType, data: object, now: number): void {
    const at = new Date(now).toISOString();
    this.sql.exec(
      "INSERT INTO calendar_events (id, business_id, type, payload, created_at, next_attempt_ms) VALUES (?, ?, ?, ?, ?, ?)",
      newId("event", now),
      businessId,
      type,
      eventPayload(type, data, at),
      at,
      now,
    );
  }

  /** Events due now, oldest first. */
  due(now: number): EventRow[] {
    return this.sql
      .exec<EventRow>(
        `SELECT id, business_id AS businessId, type, payload, created_at AS createdAt, attempts
         FROM calendar_events WHERE next_attempt_ms <= ? ORDER BY id LIMIT 20`,
        now,
      )
      .toArray();
  }

  /** The event reached D1 and, if anyone subscribed, the queue: it is dropped. */
  delivered(id: string): void {
    this.sql.exec("DELETE FROM calendar_events WHERE id = ?", id);
  }

  failed(event: EventRow, error: unknown, now: number): void {
    this.sql.exec(
      "UPDATE calendar_events SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE id = ?",
      now + retryDelayMs(event.attempts + 1),
      errorText(error).slice(0, 500),
      event.id,
    );
  }

  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM calendar_events").one().at;
  }
}

/**
 * Writes one event and its deliveries to D1 (a new conflict's e-mails too), then queues it when
 * it has any delivery or queued e-mail. Each write is keyed by the event, so a replay adds nothing.
 */
export async function publishEvent(env: Env, event: BookingEvent): Promise<void> {
  const db = createDb(env.DB);
  const results = await readBatch(
    env.DB,
    eventWrites(db).map((query) => bind<unknown>(query, event)),
  );
  const [counted] = results[results.length - 1] as { deliveries: number }[];
  const mails = event.type === "booking.conflict" ? await recordConflictMessages(env.DB, event) : 0;
  if ((counted?.deliveries ?? 0) + mails > 0) {
    await env.DELIVERY_QUEUE.send({ eventId: event.id } satisfies DeliveryMessage);
  }
}

/** Publishes every event due now, oldest first; one that fails waits for the alarm's next try. */
export async function publishDueEvents(
  env: Env,
  storage: DurableObjectStorage,
  events: CalendarEvents,
  now: number,
): Promise<void> {
  for (const event of events.due(now)) {
    try {
      await publishEvent(env, event);
      storage.transactionSync(() => events.delivered(event.id));
    } catch (error) {
      storage.transactionSync(() => events.failed(event, error, Date.now()));
    }
  }
}
