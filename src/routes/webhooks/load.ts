import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { webhookEndpoints } from "../../db/schema";
import { ApiError } from "../../lib/errors";

/** The caller's (not deleted) endpoint with this id, or 404. */
export async function loadWebhook(db: Database, businessId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(
      and(eq(webhookEndpoints.businessId, businessId), eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)),
    )
    .limit(1);
  if (!row) throw new ApiError("not_found", `No webhook endpoint ${id}.`);
  return row;
}
