import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { webhookEndpoints } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import {
  bearerSecurity,
  bodyProblems,
  emptyResponse,
  idParam,
  jsonResponse,
  pageResponse,
  problemResponses,
} from "../../lib/openapi";
import { listRules, offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { z } from "../../lib/zod";
import { isLoopbackReceiver, localReceiversAllowed } from "../../webhooks/receiver-url";
import { newSigningSecret } from "../../webhooks/signing";
import { insertEndpoint, MAX_WEBHOOK_ENDPOINTS } from "./insert";
import { loadWebhook } from "./load";
import { CreatedWebhookSchema, CreateWebhookSchema, toWebhook, WebhookListSchema, WebhookSchema } from "./schemas";

const tags = ["Webhooks"];
const whkExample = "whk_01jd3k5v7q8r9s0t1u2v3w4x5y";

const createWebhookRoute = createRoute({
  method: "post",
  path: "/",
  operationId: "createWebhook",
  tags,
  summary: "Register a webhook endpoint",
  description: `Events are POSTed as JSON signed per Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`). The signing secret is in this response only. A receiver failing again and again is retried after 10 s, 1 min, 5 min, 30 min, 2 h and 6 h; the endpoint is disabled after 5 deliveries in a row went dead. A business has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints (deleted ones do not count): registering one more is a 409 \`webhook_endpoint_limit\`.`,
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: CreateWebhookSchema } } } },
  responses: {
    201: jsonResponse("The endpoint and its secret.", CreatedWebhookSchema, { required: ["Location"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

const listWebhooksRoute = createRoute({
  method: "get",
  path: "/",
  operationId: "listWebhooks",
  tags,
  summary: "List webhook endpoints",
  description: `Newest first; deleted endpoints are not listed.\n\n${listRules}`,
  security: bearerSecurity,
  request: { query: z.strictObject(paginationQuery) },
  responses: {
    200: pageResponse("A page of endpoints.", WebhookListSchema),
    ...problemResponses(422),
  },
});

const getWebhookRoute = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getWebhook",
  tags,
  summary: "Get a webhook endpoint",
  security: bearerSecurity,
  request: { params: idParam(whkExample) },
  responses: {
    200: jsonResponse("The endpoint.", WebhookSchema),
    ...problemResponses(404, 422),
  },
});

const deleteWebhookRoute = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteWebhook",
  tags,
  summary: "Delete a webhook endpoint",
  description: "Stops all deliveries to it at once.",
  security: bearerSecurity,
  request: { params: idParam(whkExample) },
  responses: { 204: emptyResponse("Deleted."), ...problemResponses(404, 422) },
});

/** Registration, listing, reading and deletion of endpoints. */
export const webhookEndpointRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(createWebhookRoute, async (c) => {
    const body = c.req.valid("json");
    if (isLoopbackReceiver(new URL(body.url)) && !localReceiversAllowed(c.env)) {
      throw new ApiError("validation_failed", "The request body is invalid.", {
        errors: [
          {
            path: "url",
            message: "Use a public https:// URL; local receivers work on a local development server only.",
          },
        ],
      });
    }
    const now = new Date().toISOString();
    const secret = newSigningSecret();
    const row = {
      id: newId("webhook"),
      businessId: c.var.caller.businessId,
      url: body.url,
      description: body.description ?? null,
      events: body.events,
      secret,
      status: "active" as const,
      disabledReason: null,
      consecutiveFailures: 0,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    await insertEndpoint(c.var.db, row);
    const webhook = toWebhook(row);
    c.header("Location", `/api/v1/webhooks/${webhook.id}`);
    return c.json({ ...webhook, secret }, 201);
  });

  app.openapi(listWebhooksRoute, async (c) => {
    const { page, limit } = c.req.valid("query");
    const where = and(eq(webhookEndpoints.businessId, c.var.caller.businessId), isNull(webhookEndpoints.deletedAt));
    const [rows, [totals]] = await c.var.db.batch([
      c.var.db
        .select()
        .from(webhookEndpoints)
        .where(where)
        .orderBy(desc(webhookEndpoints.id))
        .limit(limit)
        .offset(offsetOf({ page, limit })),
      c.var.db.select({ total: count() }).from(webhookEndpoints).where(where),
    ]);
    return c.json(paginate(c, rows.map(toWebhook), totals?.total ?? 0, { page, limit }), 200);
  });

  app.openapi(getWebhookRoute, async (c) => {
    const row = await loadWebhook(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(toWebhook(row), 200);
  });

  app.openapi(deleteWebhookRoute, async (c) => {
    const row = await loadWebhook(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    // Kept (soft-deleted) so its delivery history stays consistent; it is never delivered to again.
    await c.var.db
      .update(webhookEndpoints)
      .set({ deletedAt: new Date().toISOString() })
      .where(eq(webhookEndpoints.id, row.id));
    return c.body(null, 204);
  });
};
