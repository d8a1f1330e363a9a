import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { needs } from "../../types/scopes";
import { MAX_WEBHOOK_ENDPOINTS, registerEndpoint } from "../../webhooks/endpoints";
import { CreatedWebhookSchema, CreateWebhookSchema } from "../../webhooks/schemas";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createWebhook",
  tags: ["Webhooks"],
  summary: "Register a webhook endpoint",
  description: `Events are POSTed as JSON signed per Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`). The signing secret is in this response only. A receiver failing again and again is retried after 10 s, 1 min, 5 min, 30 min, 2 h and 6 h; the endpoint is disabled after 5 deliveries in a row went dead. A business has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints (deleted ones do not count): registering one more is a 409 \`webhook_endpoint_limit\`.`,
  security: needs("business:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateWebhookSchema } } } },
  responses: {
    201: jsonResponse("The endpoint and its secret.", CreatedWebhookSchema, { required: ["Location"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

export const registerCreateWebhook = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const webhook = await registerEndpoint(
      c.env,
      c.var.db,
      { businessId: c.var.caller.businessId, actor: actorOf(c.var.caller) },
      c.req.valid("json"),
    );
    c.header("Location", `/api/v1/webhooks/${webhook.id}`);
    return c.json(webhook, 201);
  });
