import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listRules, paginate, paginationQuery } from "../../lists/pagination";
import { needs } from "../../types/scopes";
import { endpointPage } from "../../webhooks/endpoints";
import { WebhookListSchema } from "../../webhooks/schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listWebhooks",
  tags: ["Webhooks"],
  summary: "List webhook endpoints",
  description: `Newest first; deleted endpoints are not listed.\n\n${listRules}`,
  security: needs("business:write"),
  request: { query: z.strictObject(paginationQuery) },
  responses: {
    200: pageResponse("A page of endpoints.", WebhookListSchema),
    ...problemResponses(422),
  },
});

export const registerListWebhooks = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { items, total } = await endpointPage(c.var.db, c.var.caller.businessId, query);
    return c.json(paginate(c, items, total, query), 200);
  });
