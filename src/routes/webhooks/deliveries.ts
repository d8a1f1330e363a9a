import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { idParam, pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listRules, paginate, paginationQuery } from "../../lists/pagination";
import { needs } from "../../types/scopes";
import { deliveryPage } from "../../webhooks/delivery-log";
import { DeliveryListSchema } from "../../webhooks/schemas";

const route = createRoute({
  method: "get",
  path: "/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags: ["Webhooks"],
  summary: "Deliveries of an endpoint, with every attempt",
  description: `Newest first. \`status\` is pending, succeeded, failed (will be retried) or dead (retries exhausted).\n\n${listRules}`,
  security: needs("business:write"),
  request: { params: idParam("whk_01jd3k5v7q8r9s0t1u2v3w4x5y"), query: z.strictObject(paginationQuery) },
  responses: {
    200: pageResponse("A page of deliveries.", DeliveryListSchema),
    ...problemResponses(404, 422),
  },
});

export const registerListWebhookDeliveries = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { id } = c.req.valid("param");
    const { items, total } = await deliveryPage(c.var.db, c.var.caller.businessId, id, query);
    return c.json(paginate(c, items, total, query), 200);
  });
