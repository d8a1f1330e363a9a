import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client";
import { webhookAttempts, webhookDeliveries } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { bearerSecurity, idParam, jsonResponse, pageResponse, problemResponses } from "../../lib/openapi";
import { listRules, offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { z } from "../../lib/zod";
import type { WebhookMessage } from "../../webhooks/events";
import { loadWebhook } from "./load";
import { DeliveryListSchema, DeliverySchema } from "./schemas";

const tags = ["Webhooks"];
const whkExample = "whk_01jd3k5v7q8r9s0t1u2v3w4x5y";

const listDeliveriesRoute = createRoute({
  method: "get",
  path: "/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags,
  summary: "Deliveries of an endpoint, with every attempt",
  description: `Newest first. \`status\` is pending, succeeded, failed (will be retried) or dead (retries exhausted).\n\n${listRules}`,
  security: bearerSecurity,
  request: { params: idParam(whkExample), query: z.strictObject(paginationQuery) },
  responses: {
    200: pageResponse("A page of deliveries.", DeliveryListSchema),
    ...problemResponses(404, 422),
  },
});

const retryDeliveryRoute = createRoute({
  method: "post",
  path: "/{id}/deliveries/{deliveryId}/retry",
  operationId: "retryWebhookDelivery",
  tags,
  summary: "Send a delivery again",
  description:
    "Queues one more attempt of any delivery of an active endpoint, even a succeeded or dead one. A disabled endpoint is a 409 `invalid_transition`.",
  security: bearerSecurity,
  request: {
    params: idParam(whkExample).extend({
      deliveryId: z
        .string()
        .min(1)
        .max(120)
        .openapi({ param: { name: "deliveryId", in: "path" } }),
    }),
  },
  responses: {
    202: jsonResponse("Queued; the delivery is pending again.", DeliverySchema),
    ...problemResponses(404, 409, 422),
  },
});

/** Deliveries with their attempts, in the order given. */
async function withAttempts(db: Database, rows: (typeof webhookDeliveries.$inferSelect)[]) {
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
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

/** The delivery log of an endpoint and manual re-sends. */
export const webhookDeliveryRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(listDeliveriesRoute, async (c) => {
    const { page, limit } = c.req.valid("query");
    const endpoint = await loadWebhook(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    const where = eq(webhookDeliveries.endpointId, endpoint.id);
    const [rows, [totals]] = await c.var.db.batch([
      c.var.db
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.id))
        .limit(limit)
        .offset(offsetOf({ page, limit })),
      c.var.db.select({ total: count() }).from(webhookDeliveries).where(where),
    ]);
    return c.json(paginate(c, await withAttempts(c.var.db, rows), totals?.total ?? 0, { page, limit }), 200);
  });

  app.openapi(retryDeliveryRoute, async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    const endpoint = await loadWebhook(c.var.db, c.var.caller.businessId, id);
    if (endpoint.status !== "active") {
      throw new ApiError("invalid_transition", "The endpoint is disabled; deliveries to it are not sent.");
    }
    const [row] = await c.var.db
      .update(webhookDeliveries)
      .set({ status: "pending", updatedAt: new Date().toISOString() })
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.id, deliveryId)))
      .returning();
    if (!row) throw new ApiError("not_found", `No delivery ${deliveryId} for this endpoint.`);
    await c.env.WEBHOOK_QUEUE.send({ eventId: row.eventId, deliveryId: row.id } satisfies WebhookMessage);
    const [delivery] = await withAttempts(c.var.db, [row]);
    return c.json(delivery as NonNullable<typeof delivery>, 202);
  });
};
