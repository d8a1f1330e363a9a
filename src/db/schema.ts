/**
 * D1 tables, the single source of truth for the query store.
 * `npm run db:generate` turns changes here into SQL under migrations/.
 *
 * Timestamps are ISO 8601 UTC strings from `Date#toISOString()` (fixed width, so they sort
 * as text). Every tenant-owned table leads its indexes with `business_id`.
 */

import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bookingStatuses } from "../domain/booking.ts";
import type { DateOverride, WeeklySchedule } from "../domain/schedule.ts";
import { type WebhookEventType, webhookEventTypes } from "../domain/webhook.ts";

export const businesses = sqliteTable("businesses", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    /** SHA-256 of the whole key, lowercase hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** First characters of the key (e.g. `bk_live_a1b2`), to tell keys apart in listings. */
    keyPrefix: text("key_prefix").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_business_idx").on(t.businessId)],
);

export const services = sqliteTable(
  "services",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    name: text("name").notNull(),
    description: text("description"),
    durationMinutes: integer("duration_minutes").notNull(),
    capacity: integer("capacity").notNull().default(1),
    slotIntervalMinutes: integer("slot_interval_minutes").notNull(),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    minNoticeMinutes: integer("min_notice_minutes").notNull().default(0),
    maxAdvanceDays: integer("max_advance_days").notNull().default(365),
    timezone: text("timezone").notNull(),
    /** JSON: `{ "mon": [{ "start": "09:00", "end": "17:00" }], ... }` in `timezone`. */
    weeklySchedule: text("weekly_schedule", { mode: "json" }).notNull().$type<WeeklySchedule>(),
    requiresConfirmation: integer("requires_confirmation", { mode: "boolean" }).notNull().default(false),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** JSON: `[{ "date": "2026-12-24", "intervals": [...] }]`, local dates in `timezone`. */
    dateOverrides: text("date_overrides", { mode: "json" }).notNull().default([]).$type<DateOverride[]>(),
    /** Moves forward on every change: the ETag, and how the calendar tells stale settings. */
    version: integer("version").notNull().default(1),
  },
  (t) => [index("services_business_active_idx").on(t.businessId, t.active, t.id)],
);

/** People (or rooms, chairs) who perform services, each with own hours in own time zone. */
export const providers = sqliteTable(
  "providers",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    name: text("name").notNull(),
    email: text("email"),
    timezone: text("timezone").notNull(),
    weeklySchedule: text("weekly_schedule", { mode: "json" }).notNull().$type<WeeklySchedule>(),
    dateOverrides: text("date_overrides", { mode: "json" }).notNull().default([]).$type<DateOverride[]>(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** Bumped on every change; the ETag and the provider calendar's settings both follow it. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("providers_business_active_idx").on(t.businessId, t.active, t.id)],
);

/** Who performs which service. */
export const serviceProviders = sqliteTable(
  "service_providers",
  {
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    providerId: text("provider_id")
      .notNull()
      .references(() => providers.id),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.providerId] }),
    index("service_providers_business_provider_idx").on(t.businessId, t.providerId, t.serviceId),
    index("service_providers_business_service_idx").on(t.businessId, t.serviceId, t.providerId),
  ],
);

export const customers = sqliteTable(
  "customers",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** Lower-cased e-mail: the per-business identity of a customer. */
    emailNormalized: text("email_normalized").notNull(),
    /** Lower-cased name, so search is case-insensitive beyond ASCII. */
    nameNormalized: text("name_normalized").notNull(),
    phone: text("phone"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Set when the person was erased: the row stays (bookings reference it) with placeholders only. */
    erasedAt: text("erased_at"),
  },
  (t) => [
    uniqueIndex("customers_business_email_uq").on(t.businessId, t.emailNormalized),
    index("customers_business_id_idx").on(t.businessId, t.id),
  ],
);

export const bookings = sqliteTable(
  "bookings",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    /** Who performs it; null for services without providers. */
    providerId: text("provider_id").references(() => providers.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    customerName: text("customer_name").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerPhone: text("customer_phone"),
    startTime: text("start_time").notNull(),
    endTime: text("end_time").notNull(),
    notes: text("notes"),
    status: text("status", { enum: bookingStatuses }).notNull(),
    /** Bumped by the service's calendar on every change; D1 keeps the highest it has seen. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    cancelledAt: text("cancelled_at"),
    cancellationReason: text("cancellation_reason"),
  },
  (t) => [
    index("bookings_business_start_idx").on(t.businessId, t.startTime, t.id),
    index("bookings_business_status_start_idx").on(t.businessId, t.status, t.startTime, t.id),
    index("bookings_business_service_start_idx").on(t.businessId, t.serviceId, t.startTime, t.id),
    index("bookings_business_customer_start_idx").on(t.businessId, t.customerId, t.startTime, t.id),
    index("bookings_business_provider_start_idx").on(t.businessId, t.providerId, t.startTime, t.id),
  ],
);

/** Idempotency-Key records, per business (IETF draft), kept at least 24 hours. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    key: text("key").notNull(),
    /** SHA-256 of method, path and canonical body: tells a replay from a reuse. */
    requestHash: text("request_hash").notNull(),
    /** Null while the first request is in flight. */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseLocation: text("response_location"),
    /** JSON: the other headers of the first answer a replay carries again (e.g. `ETag`). */
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    /** An in-flight claim older than this is abandoned and may be taken over. */
    lockedUntil: text("locked_until").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

export type ServiceRow = typeof services.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type ProviderRow = typeof providers.$inferSelect;
/** A booking row; `providerId` may be absent in records written before bookings had providers. */
export type BookingRow = Omit<typeof bookings.$inferSelect, "providerId"> & { providerId?: string | null };

/** HTTPS endpoints a business registered for booking events. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    url: text("url").notNull(),
    description: text("description"),
    events: text("events", { mode: "json" }).notNull().$type<WebhookEventType[]>(),
    /** `whsec_…` (Standard Webhooks): needed in clear to sign, shown to the business only once. */
    secret: text("secret").notNull(),
    status: text("status", { enum: ["active", "disabled"] }).notNull(),
    disabledReason: text("disabled_reason"),
    /** Deliveries in a row that ended dead-lettered; reset by any success. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
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
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    eventType: text("event_type", { enum: webhookEventTypes }).notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "dead"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
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
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer("attempt").notNull(),
    at: text("at").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

/**
 * Holds, as the Worker finds them: which service's calendar keeps each one (the calendar is the
 * authority on its state) and which API key placed it (at most 50 live holds per key).
 */
export const holds = sqliteTable(
  "holds",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    apiKeyId: text("api_key_id").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** Set when the hold ends early (released or consumed); null while it may still be live. */
    endedAt: text("ended_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("holds_business_idx").on(t.businessId, t.id), index("holds_key_live_idx").on(t.apiKeyId, t.expiresAt)],
);
