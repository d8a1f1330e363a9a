/** Webhook endpoints, the booking events sent to them, and each delivery with its attempts. */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { type WebhookEventType, webhookEventTypes } from "../../types/webhook.ts";
import { ownedRowColumns, requiredRef, timestampColumns } from "./businesses.ts";

/** HTTPS endpoints a business registered for booking events. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    ...ownedRowColumns(),
    url: text("url").notNull(),
    description: text("description"),
    events: text("events", { mode: "json" }).notNull().$type<WebhookEventType[]>(),
    /** `whsec_…` (Standard Webhooks): needed in clear to sign, shown to the business only once. */
    secret: text("secret").notNull(),
    status: text("status", { enum: ["active", "disabled"] }).notNull(),
    disabledReason: text("disabled_reason"),
    /** Deliveries in a row that ended dead-lettered; reset by any success. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    ...timestampColumns(),
    deletedAt: text("deleted_at"),
  },
  (t) => [index("webhook_endpoints_business_idx").on(t.businessId, t.id)],
);

/** Booking events, written in the same D1 batch as the booking change they describe. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id").notNull(),
    type: text("type", { enum: webhookEventTypes }).notNull(),
    /** The JSON body sent to receivers: `{ type, timestamp, data }`. */
    payload: text("payload").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("webhook_events_business_idx").on(t.businessId, t.createdAt),
    index("webhook_events_created_idx").on(t.createdAt),
  ],
);

/** One event for one endpoint; its attempts are in webhook_attempts. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id").notNull(),
    endpointId: requiredRef("endpoint_id", () => webhookEndpoints.id),
    eventId: requiredRef("event_id", () => webhookEvents.id),
    eventType: text("event_type", { enum: webhookEventTypes }).notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "dead"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    ...timestampColumns(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_event_idx").on(t.eventId),
    index("webhook_deliveries_created_idx").on(t.createdAt),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    deliveryId: requiredRef("delivery_id", () => webhookDeliveries.id),
    attempt: integer("attempt").notNull(),
    at: text("at").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
