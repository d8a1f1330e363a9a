/** Resources (rooms, chairs, machines) with identical units, and which services need which. */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { DateOverride, WeeklySchedule } from "../../types/schedule.ts";
import { businessIdColumn } from "./businesses.ts";
import { services } from "./catalog.ts";

export const resources = sqliteTable(
  "resources",
  {
    id: text("id").primaryKey(),
    businessId: businessIdColumn(),
    name: text("name").notNull(),
    /** Identical units; each booking of a service that needs the resource takes one. */
    quantity: integer("quantity").notNull().default(1),
    timezone: text("timezone").notNull(),
    /** JSON in `timezone`; null: open whenever a service using it is. */
    weeklySchedule: text("weekly_schedule", { mode: "json" }).$type<WeeklySchedule | null>(),
    dateOverrides: text("date_overrides", { mode: "json" }).notNull().default([]).$type<DateOverride[]>(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** Bumped on every change; the ETag and the resource calendar's settings both follow it. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("resources_business_active_idx").on(t.businessId, t.active, t.id)],
);

/** Which resources every booking of a service takes a unit of. */
export const serviceResources = sqliteTable(
  "service_resources",
  {
    businessId: businessIdColumn(),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    resourceId: text("resource_id")
      .notNull()
      .references(() => resources.id),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.resourceId] }),
    index("service_resources_business_service_idx").on(t.businessId, t.serviceId, t.resourceId),
    index("service_resources_business_resource_idx").on(t.businessId, t.resourceId, t.serviceId),
  ],
);

export type ResourceRow = typeof resources.$inferSelect;
