/**
 * Booking events: made by the calendar in the same transaction as the change, written to D1
 * with the booking (fanned out to the subscribed endpoints there), then put on the queue.
 */
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { preparedOnce } from "../db/prepared";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import type { Booking, BookingStatus } from "../types/booking";
import type { WebhookEventType } from "../types/webhook";

/** An event as the calendar's outbox holds it. */
export type BookingEvent = {
  id: string;
  businessId: string;
  type: WebhookEventType;
  payload: string;
  createdAt: string;
  /** What it mails the customer: a `MailPlan` as JSON (src/types/message.ts), or null. */
  mail: string | null;
  /**
   * The change's audit, `{actor, fields}` as JSON (src/audit/booking-events.ts), carried by the
   * calendars' write-behind; null or absent: a change by the system.
   */
  audit?: string | null;
};

/** The queue message: the consumer delivers every open delivery of the event (or just one). */
export type DeliveryMessage = {
  eventId: string;
  deliveryId?: string;
  /** The shard of the event's business (stamped by the business env that sent it; absent: shard 0). */
  shard?: number;
  /** Not an event: a member's sign-in link to send (src/access/sign-in-mail.ts); `eventId` is empty. */
  signInLinkId?: string;
};

/** The event a booking change raises. */
export function eventTypeFor(previous: BookingStatus | null, next: BookingStatus): WebhookEventType {
  if (previous === null) return "booking.created";
  return next === "CANCELLED" && previous !== "CANCELLED" ? "booking.cancelled" : "booking.updated";
}

/** The body receivers get, per the Standard Webhooks payload shape. */
export function eventPayload(type: WebhookEventType, booking: Booking | object, at: string): string {
  return JSON.stringify({ type, timestamp: at, data: booking });
}

/**
 * D1 statements that record an event and one delivery per active endpoint subscribed to it,
 * then count its deliveries; prepared once per handle and bound with the event's fields.
 * Deterministic ids and ON CONFLICT make a replay harmless. (The calendars' write-behind counts
 * the event's messages too: src/messages/records.ts `messageWrites`.)
 */
export function eventWrites(db: Database) {
  const p = sql.placeholder;
  const endpoint = webhookEndpoints;
  return preparedOnce(db, "persist.event", (db) => [
    db
      .insert(webhookEvents)
      .values({
        id: p("id"),
        businessId: p("businessId"),
        type: p("type"),
        payload: p("payload"),
        createdAt: p("createdAt"),
      })
      .onConflictDoNothing()
      .prepare(),
    db
      .insert(webhookDeliveries)
      .select(
        db
          .select({
            id: sql<string>`'dlv_' || substr(${p("id")}, 5) || '_' || substr(${endpoint.id}, 5)`.as("id"),
            businessId: endpoint.businessId,
            endpointId: endpoint.id,
            eventId: sql<string>`${p("id")}`.as("event_id"),
            eventType: sql<WebhookEventType>`${p("type")}`.as("event_type"),
            status: sql<"pending">`'pending'`.as("status"),
            attempts: sql<number>`0`.as("attempts"),
            lastStatusCode: sql<null>`NULL`.as("last_status_code"),
            lastError: sql<null>`NULL`.as("last_error"),
            createdAt: sql<string>`${p("createdAt")}`.as("created_at"),
            updatedAt: sql<string>`${p("createdAt")}`.as("updated_at"),
          })
          .from(endpoint)
          .where(
            and(
              eq(endpoint.businessId, p("businessId")),
              eq(endpoint.status, "active"),
              isNull(endpoint.deletedAt),
              sql`EXISTS (SELECT 1 FROM json_each(${endpoint.events}) WHERE value = ${p("type")})`,
            ),
          ),
      )
      .onConflictDoNothing()
      .prepare(),
    db
      .select({ deliveries: count() })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, p("id")))
      .prepare(),
  ]);
}
