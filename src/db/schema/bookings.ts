/** Bookings as D1 stores them (the service calendars are the authority; D1 is the query store). */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bookingStatuses, conflictKinds } from "../../types/booking.ts";
import type { Answers } from "../../types/questions.ts";
import { businessIdColumn, ownedRowColumns, requiredRef, timestampColumns } from "./businesses.ts";
import { providers, services } from "./catalog.ts";
import { customers } from "./customers.ts";

export const bookings = sqliteTable(
  "bookings",
  {
    ...ownedRowColumns(),
    serviceId: requiredRef("service_id", () => services.id),
    /** Who performs it; null for services without providers. */
    providerId: text("provider_id").references(() => providers.id),
    /** JSON: everyone claimed for it (the one person, or a team); `[]` for none. */
    providerIds: text("provider_ids", { mode: "json" }).notNull().default([]).$type<string[]>(),
    /** JSON: the resources it takes a unit of. */
    resourceIds: text("resource_ids", { mode: "json" }).notNull().default([]).$type<string[]>(),
    customerId: requiredRef("customer_id", () => customers.id),
    customerName: text("customer_name").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerPhone: text("customer_phone"),
    startTime: text("start_time").notNull(),
    endTime: text("end_time").notNull(),
    notes: text("notes"),
    /** JSON: answers to the service's questions, by key. */
    answers: text("answers", { mode: "json" }).notNull().default({}).$type<Answers>(),
    status: text("status", { enum: bookingStatuses }).notNull(),
    /** Bumped by the service's calendar on every change; D1 keeps the highest it has seen. */
    version: integer("version").notNull().default(1),
    ...timestampColumns(),
    cancelledAt: text("cancelled_at"),
    cancellationReason: text("cancellation_reason"),
    /** The visit it is a segment of (`apt_…`); null for a booking on its own. */
    appointmentId: text("appointment_id"),
    /** The series it is an occurrence of (`ser_…`); null otherwise. */
    seriesId: text("series_id"),
  },
  (t) => [
    index("bookings_business_start_idx").on(t.businessId, t.startTime, t.id),
    index("bookings_business_status_start_idx").on(t.businessId, t.status, t.startTime, t.id),
    index("bookings_business_service_start_idx").on(t.businessId, t.serviceId, t.startTime, t.id),
    index("bookings_business_customer_start_idx").on(t.businessId, t.customerId, t.startTime, t.id),
    index("bookings_business_provider_start_idx").on(t.businessId, t.providerId, t.startTime, t.id),
    index("bookings_business_appointment_idx").on(t.businessId, t.appointmentId),
    index("bookings_business_series_idx").on(t.businessId, t.seriesId, t.startTime),
    // D1 enforces foreign keys: deleting a customer row looks for its bookings, which without
    // this index reads every booking of the shard (a move deletes every customer of a business).
    index("bookings_customer_idx").on(t.customerId),
  ],
);

/**
 * A booking row; `providerId` may be absent in records written before bookings had providers,
 * `providerIds` and `resourceIds` in those written before teams and resources, `answers` before questions,
 * `appointmentId` before visits.
 */
export type BookingRow = Omit<
  typeof bookings.$inferSelect,
  "providerId" | "providerIds" | "resourceIds" | "answers" | "appointmentId" | "seriesId"
> & {
  providerId?: string | null;
  providerIds?: string[];
  resourceIds?: string[];
  answers?: Answers;
  appointmentId?: string | null;
  seriesId?: string | null;
};

/**
 * A booking's conflicts as the calendar objects that found them push them (docs/staff-calendars.md,
 * "Conflicts"): one row per booking, finder (`source_id`, a person's or room's id) and kind,
 * cleared (`cleared_at`) rather than deleted so that an older push never brings one back: a push
 * is applied only over a lower `version`. No foreign key: a conflict may reach D1 before its booking.
 */
export const bookingConflicts = sqliteTable(
  "booking_conflicts",
  {
    bookingId: text("booking_id").notNull(),
    sourceId: text("source_id").notNull(),
    kind: text("kind", { enum: conflictKinds }).notNull(),
    businessId: businessIdColumn(),
    detectedAt: text("detected_at").notNull(),
    detail: text("detail").notNull(),
    clearedAt: text("cleared_at"),
    version: integer("version").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.sourceId, t.kind] }),
    index("booking_conflicts_business_open_idx").on(t.businessId, t.clearedAt, t.bookingId),
  ],
);
