import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { businessIdColumn } from "./businesses.ts";

/** Idempotency-Key records, per business (IETF draft), kept at least 24 hours. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    businessId: businessIdColumn(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and canonical body: tells a replay from a reuse. */
    requestHash: text("request_hash").notNull(),
    /** Null while the first request is in flight. */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseLocation: text("response_location"),
    /** JSON: the other headers of the first answer a replay carries again (e.g. `ETag`). */
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    /** An in-flight key older than this is abandoned and may be taken over. */
    lockedUntil: text("locked_until").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
