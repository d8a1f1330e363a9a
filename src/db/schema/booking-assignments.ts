/**
 * Everyone and everything a booking claims, one row each, written in the same D1 batch as the
 * booking (from its `provider_ids` and `resource_ids`): what a person's or a resource's bookings
 * list and the `providerId` filter read, newest booking first.
 */
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bookings } from "./bookings.ts";
import { businessIdColumn } from "./businesses.ts";
import { providers } from "./catalog.ts";
import { resources } from "./resources.ts";

export const bookingProviders = sqliteTable(
  "booking_providers",
  {
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id),
    providerId: text("provider_id")
      .notNull()
      .references(() => providers.id),
    businessId: businessIdColumn(),
    /** The booking's start, copied so the list is read in order from the index. */
    startTime: text("start_time").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.providerId] }),
    index("booking_providers_business_provider_start_idx").on(t.businessId, t.providerId, t.startTime, t.bookingId),
  ],
);

export const bookingResources = sqliteTable(
  "booking_resources",
  {
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id),
    resourceId: text("resource_id")
      .notNull()
      .references(() => resources.id),
    businessId: businessIdColumn(),
    startTime: text("start_time").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.resourceId] }),
    index("booking_resources_business_resource_start_idx").on(t.businessId, t.resourceId, t.startTime, t.bookingId),
  ],
);
