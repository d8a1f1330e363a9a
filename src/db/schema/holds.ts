import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ownedRowColumns, requiredRef } from "./businesses.ts";
import { services } from "./catalog.ts";

/**
 * Holds, as the Worker finds them: which service's calendar keeps each one (the calendar is the
 * authority on its state) and which API key placed it (at most 50 live holds per key).
 */
export const holds = sqliteTable(
  "holds",
  {
    ...ownedRowColumns(),
    serviceId: requiredRef("service_id", () => services.id),
    apiKeyId: text("api_key_id").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** Set when the hold ends early (released or consumed); null while it may still be live. */
    endedAt: text("ended_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("holds_business_idx").on(t.businessId, t.id), index("holds_key_live_idx").on(t.apiKeyId, t.expiresAt)],
);
