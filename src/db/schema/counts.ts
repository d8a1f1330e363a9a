/**
 * Counts kept beside the rows they count, so a list's `total` is one row read instead of a
 * count over every matching row. The triggers of migrations/0006_list_counts_triggers_search.sql
 * keep them in the same statement as the row they count (so in the same D1 batch as a booking's
 * or customer's write); `recountLists` in src/lists/counts.ts recounts them and reports drift.
 */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { businessIdColumn } from "./businesses.ts";

export const listCounts = sqliteTable(
  "list_counts",
  {
    businessId: businessIdColumn(),
    /** What is counted: `bookings`, `bookings.status`, `bookings.serviceId`, `bookings.customerId`, `bookings.providerId` or `customers` (not erased). */
    dimension: text("dimension").notNull(),
    /** The filter's value (a status, a service id…); '' for a whole list. */
    value: text("value").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.dimension, t.value] })],
);
