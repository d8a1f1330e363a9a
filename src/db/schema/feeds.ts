/** A person's calendar feed: the hash of the secret in its URL (the URL itself is never stored). */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { businessIdColumn } from "./businesses.ts";
import { providers } from "./catalog.ts";

export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    /** One feed per person: a new one replaces the old, whose URL stops working. */
    providerId: text("provider_id")
      .primaryKey()
      .references(() => providers.id),
    businessId: businessIdColumn(),
    /** SHA-256 of the token in the URL, as API keys are kept. */
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("calendar_feeds_business_idx").on(t.businessId, t.providerId)],
);
