import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { idParam, jsonResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { needs } from "../../types/scopes";
import { retryDelivery } from "../../webhooks/delivery-log";
import { DeliverySchema } from "../../webhooks/schemas";

const route = createRoute({
  method: "post",
  path: "/{id}/deliveries/{deliveryId}/retry",
  operationId: "retryWebhookDelivery",
  tags: ["Webhooks"],
  summary: "Send a delivery again",
  description:
    "Queues one more attempt of any delivery of an active endpoint, even a succeeded or dead one. A disabled endpoint is a 409 `invalid_transition`.",
  security: needs("business:write"),
  request: {
    params: idParam("whk_01jd3k5v7q8r9s0t1u2v3w4x5y").extend({
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

export const registerRetryWebhookDelivery = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    return c.json(await retryDelivery(c.env, c.var.db, c.var.caller.businessId, id, deliveryId), 202);
  });
