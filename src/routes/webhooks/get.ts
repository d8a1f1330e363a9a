import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { needs } from "../../types/scopes";
import { loadEndpoint, toWebhook } from "../../webhooks/endpoints";
import { WebhookSchema } from "../../webhooks/schemas";
import { readById } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getWebhook",
  tags: ["Webhooks"],
  summary: "Get a webhook endpoint",
  security: needs("business:write"),
  ...readById("whk_01jd3k5v7q8r9s0t1u2v3w4x5y", "The endpoint.", WebhookSchema),
});

export const registerGetWebhook = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadEndpoint(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(toWebhook(row), 200);
  });
