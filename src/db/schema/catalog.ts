/** The catalog: services, the providers who perform them, and which provider performs which service. */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Assignment, ProviderLimits, ServiceLimits } from "../../types/limits.ts";
import type { Question } from "../../types/questions.ts";
import type { DateOverride, WeeklySchedule } from "../../types/schedule.ts";
import { businessIdColumn, ownedRowColumns, requiredRef, timestampColumns } from "./businesses.ts";

export const services = sqliteTable(
  "services",
  {
    ...ownedRowColumns(),
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
    ...timestampColumns(),
    /** JSON: `[{ "date": "2026-12-24", "intervals": [...] }]`, local dates in `timezone`. */
    dateOverrides: text("date_overrides", { mode: "json" }).notNull().default([]).$type<DateOverride[]>(),
    /** Moves forward on every change: the ETag, and how the calendar tells stale settings. */
    version: integer("version").notNull().default(1),
    /** With providers: `one` of them performs each booking, or `all` of them together (a team). */
    providerMode: text("provider_mode", { enum: ["one", "all"] })
      .notNull()
      .default("one"),
    /** A customer's manage link cannot cancel within this many minutes of the start (API keys can). */
    cancellationNoticeMinutes: integer("cancellation_notice_minutes").notNull().default(0),
    /** A customer's manage link cannot move a booking within this many minutes of its start. */
    rescheduleNoticeMinutes: integer("reschedule_notice_minutes").notNull().default(0),
    /** JSON: what booking it asks (`[{ key, label, type, required, choices? }]`). */
    questions: text("questions", { mode: "json" }).notNull().default([]).$type<Question[]>(),
    /** JSON: when a `booking.reminder` goes out, `[{ "offsetMinutes": 1440 }]` (before the start). */
    reminders: text("reminders", { mode: "json" }).notNull().default([]).$type<{ offsetMinutes: number }[]>(),
    /** Offered on the business's booking page (and its public JSON). */
    bookableOnline: integer("bookable_online", { mode: "boolean" }).notNull().default(false),
    /** JSON: bookings per local day and ISO week, `{ "perDay": 8, "perWeek": 30 }` (absent: none). */
    limits: text("limits", { mode: "json" }).notNull().default({}).$type<ServiceLimits>(),
    /** Upcoming bookings one customer e-mail may hold; null: no limit. */
    maxActivePerCustomer: integer("max_active_per_customer"),
    /** Who an unnamed booking goes to (`first` or `balanced`). */
    assignment: text("assignment", { enum: ["first", "balanced"] })
      .notNull()
      .default("first")
      .$type<Assignment>(),
  },
  (t) => [index("services_business_active_idx").on(t.businessId, t.active, t.id)],
);

/** People (or rooms, chairs) who perform services, each with own hours in own time zone. */
export const providers = sqliteTable(
  "providers",
  {
    ...ownedRowColumns(),
    name: text("name").notNull(),
    email: text("email"),
    timezone: text("timezone").notNull(),
    weeklySchedule: text("weekly_schedule", { mode: "json" }).notNull().$type<WeeklySchedule>(),
    dateOverrides: text("date_overrides", { mode: "json" }).notNull().default([]).$type<DateOverride[]>(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** Bumped on every change; the ETag and the provider calendar's settings both follow it. */
    version: integer("version").notNull().default(1),
    ...timestampColumns(),
    /** JSON: their bookings of every service per local day, `{ "perDay": 6 }` (absent: none). */
    limits: text("limits", { mode: "json" }).notNull().default({}).$type<ProviderLimits>(),
  },
  (t) => [index("providers_business_active_idx").on(t.businessId, t.active, t.id)],
);

/** Who performs which service. */
export const serviceProviders = sqliteTable(
  "service_providers",
  {
    businessId: businessIdColumn(),
    serviceId: requiredRef("service_id", () => services.id),
    providerId: requiredRef("provider_id", () => providers.id),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.providerId] }),
    index("service_providers_business_provider_idx").on(t.businessId, t.providerId, t.serviceId),
    index("service_providers_business_service_idx").on(t.businessId, t.serviceId, t.providerId),
  ],
);

export type ServiceRow = typeof services.$inferSelect;
export type ProviderRow = typeof providers.$inferSelect;
