/**
 * `email.failed`: a business hears through its webhooks that messages to its customers fail — the
 * first failure of each clock hour raises it, later ones that hour do not (one event id per
 * business and hour, so a second raise is a replay). The log of every message is
 * `GET /bookings/{id}/messages`.
 */

import { type DeliveryMessage, eventPayload, eventWrites } from "../audit/events";
import { createDb } from "../db/client";
import { bind, readBatch } from "../db/prepared";
import type { FailureReason } from "../types/message";
import { hourOf } from "./lease";

/**
 * The event id of a business's `email.failed` in the hour starting at `hourStart`: `evt_` and 26
 * hex digits of a hash of both, so it is the same whoever raises it, and a second raise that hour
 * is a replay.
 */
export async function failureEventId(businessId: string, hourStart: number): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`email.failed:${businessId}:${hourStart}`),
  );
  return `evt_${Array.from(new Uint8Array(digest).slice(0, 13), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Records the hour's `email.failed` of the message's business (unless it has one), with its
 * deliveries, and puts it on the webhook queue while a delivery of it has not been tried.
 */
export async function raiseFailure(env: Env, failure: { messageId: string; reason: FailureReason }, now: number) {
  const message = await env.DB.prepare("SELECT business_id, booking_id, kind, detail FROM messages WHERE id = ?")
    .bind(failure.messageId)
    .first<{ business_id: string; booking_id: string; kind: string; detail: string | null }>();
  if (!message) return;
  const hourStart = Date.parse(`${hourOf(now)}:00:00Z`);
  const id = await failureEventId(message.business_id, hourStart);
  const at = new Date(now).toISOString();
  const data = {
    hourStartedAt: new Date(hourStart).toISOString(),
    messageId: failure.messageId,
    bookingId: message.booking_id,
    kind: message.kind,
    reason: failure.reason,
    detail: message.detail,
  };
  const event = { id, businessId: message.business_id, type: "email.failed", createdAt: at, mail: null };
  const values = { ...event, payload: eventPayload("email.failed", data, at) };
  const db = createDb(env.DB);
  await readBatch(
    env.DB,
    eventWrites(db).map((query) => bind<unknown>(query, values)),
  );
  const untried = await env.DB.prepare(
    "SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ? AND status = 'pending' AND attempts = 0",
  )
    .bind(id)
    .first<{ n: number }>();
  if ((untried?.n ?? 0) > 0) await env.DELIVERY_QUEUE.send({ eventId: id } satisfies DeliveryMessage);
}
