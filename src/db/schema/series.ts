import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedRowColumns, requiredRef } from "./businesses.ts";
import { services } from "./catalog.ts";

/** An occurrence a series did not book, and why (as `POST /series` answered it). */
export type SkippedOccurrence = { startTime: string; endTime: string; reason: string };

/**
 * Series (`ser_…`): the rule they were booked from and the occurrences they skipped. Their
 * bookings carry `series_id` (the service's calendar writes them); this row is written by the
 * Worker once the calendar has booked them.
 */
export const series = sqliteTable("series", {
  ...ownedRowColumns(),
  serviceId: requiredRef("service_id", () => services.id),
  recurrence: text("recurrence").notNull(),
  /** JSON: the occurrences not booked. */
  skipped: text("skipped", { mode: "json" }).notNull().default([]).$type<SkippedOccurrence[]>(),
  createdAt: text("created_at").notNull(),
});
