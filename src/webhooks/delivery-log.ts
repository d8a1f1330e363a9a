/** The delivery log of an endpoint (every delivery with its attempts), and deliveries sent again by hand. */
import { and, asc, eq } from "drizzle-orm";
import type { DeliveryMessage } from "../audit/events";
import type { Database } from "../db/client";
import { inList } from "../db/json-list";
import { webhookAttempts, webhookDeliveries } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { newestFirst } from "../lists/newest-first";
import type { PageRequest } from "../lists/pagination";
import { loadEndpoint } from "./endpoints";

/** Deliveries with their attempts, in the order given (a page's ids bound as one list: up to 100 of them). */
async function withAttempts(db: Database, rows: (typeof webhookDeliveries.$inferSelect)[]) {
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inList(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    eventType: r.eventType,
    status: r.status,
    attempts: attempts
      .filter((a) => a.deliveryId === r.id)
      .map(({ attempt, at, statusCode, error, durationMs }) => ({ attempt, at, statusCode, error, durationMs })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

/** One page of the deliveries to the business's endpoint, newest first, each with its attempts, and how many there are. */
export async function deliveryPage(db: Database, businessId: string, endpointId: string, page: PageRequest) {
  const endpoint = await loadEndpoint(db, businessId, endpointId);
  const where = eq(webhookDeliveries.endpointId, endpoint.id);
  const { rows, total } = await newestFirst(db, webhookDeliveries, where, page);
  return { items: await withAttempts(db, rows), total };
}

/**
 * Queues one more attempt of a delivery to the business's endpoint (any delivery, even a
 * succeeded or dead one) and answers it, pending again. A disabled endpoint is a 409.
 */
export async function retryDelivery(
  env: Env,
  db: Database,
  businessId: string,
  endpointId: string,
  deliveryId: string,
) {
  const endpoint = await loadEndpoint(db, businessId, endpointId);
  if (endpoint.status !== "active") {
    throw new ApiError("invalid_transition", "The endpoint is disabled; deliveries to it are not sent.");
  }
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", updatedAt: new Date().toISOString() })
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.id, deliveryId)))
    .returning();
  if (!row) throw new ApiError("not_found", `No delivery ${deliveryId} for this endpoint.`);
  await env.DELIVERY_QUEUE.send({ eventId: row.eventId, deliveryId: row.id } satisfies DeliveryMessage);
  const [delivery] = await withAttempts(db, [row]);
  return delivery as NonNullable<typeof delivery>;
}
