import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedRowColumns, requiredRef } from "./businesses.ts";
import { services } from "./catalog.ts";

/**
 * Waitlist entries, as the Worker finds them: which service's calendar keeps each one (the
 * calendar is the authority on its state) and which API key queued it (a bound per key).
 */
export const waitlistEntries = sqliteTable(
  "waitlist_entries",
  {
    ...ownedRowColumns(),
    serviceId: requiredRef("service_id", () => services.id),
    apiKeyId: text("api_key_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("waitlist_entries_business_idx").on(t.businessId, t.id),
    index("waitlist_entries_key_idx").on(t.apiKeyId, t.createdAt),
  ],
);
