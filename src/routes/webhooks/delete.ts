import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { needs } from "../../types/scopes";
import { deleteEndpoint } from "../../webhooks/endpoints";
import { deleteById } from "../operations";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteWebhook",
  tags: ["Webhooks"],
  summary: "Delete a webhook endpoint",
  description: "Stops all deliveries to it at once.",
  security: needs("business:write"),
  ...deleteById("whk_01jd3k5v7q8r9s0t1u2v3w4x5y", "Deleted."),
});

export const registerDeleteWebhook = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await deleteEndpoint(c.var.db, c.var.caller.businessId, c.req.valid("param").id, actorOf(c.var.caller));
    return c.body(null, 204);
  });
