import { and, count, eq, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { businesses, webhookEndpoints } from "../../db/schema";
import { ApiError } from "../../lib/errors";

/** Endpoints (not deleted) one business may have: each event is delivered to every one of them. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

type NewEndpoint = typeof webhookEndpoints.$inferInsert & {
  description: string | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  deletedAt: string | null;
};

/**
 * `INSERT … SELECT … WHERE (endpoints of the business) < MAX`: the count and the insert are one
 * statement, so concurrent registrations cannot pass the bound together.
 */
export function insertEndpointQuery(db: Database, row: NewEndpoint) {
  const live = db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.businessId, row.businessId), isNull(webhookEndpoints.deletedAt)));
  const value = <T>(v: T) => sql`${v}`;
  return db.insert(webhookEndpoints).select(
    db
      .select({
        id: value(row.id).as("id"),
        businessId: businesses.id,
        url: value(row.url).as("url"),
        description: value(row.description).as("description"),
        events: value(JSON.stringify(row.events)).as("events"),
        secret: value(row.secret).as("secret"),
        status: value(row.status).as("status"),
        disabledReason: value(row.disabledReason).as("disabled_reason"),
        consecutiveFailures: value(row.consecutiveFailures).as("consecutive_failures"),
        createdAt: value(row.createdAt).as("created_at"),
        updatedAt: value(row.updatedAt).as("updated_at"),
        deletedAt: value(row.deletedAt).as("deleted_at"),
      })
      .from(businesses)
      .where(and(eq(businesses.id, row.businessId), lt(sql`(${live})`, MAX_WEBHOOK_ENDPOINTS))),
  );
}

/** Stores a new endpoint, or refuses with 409 `webhook_endpoint_limit` when the business has the maximum. */
export async function insertEndpoint(db: Database, row: NewEndpoint): Promise<void> {
  const result = await insertEndpointQuery(db, row).run();
  if (result.meta.changes === 0) {
    throw new ApiError(
      "webhook_endpoint_limit",
      `A business can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one it no longer needs (DELETE /webhooks/{id}), then register the new one.`,
    );
  }
}
