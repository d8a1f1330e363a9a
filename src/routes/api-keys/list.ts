import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ApiKeyListSchema } from "../../access/key-schemas";
import { keyPage } from "../../access/keys";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listRules, paginate, paginationQuery } from "../../lists/pagination";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listApiKeys",
  tags: ["API keys"],
  summary: "List API keys",
  description: `The business's keys, live and revoked, newest first: names, prefixes and scopes, never the keys.\n\n${listRules}`,
  security: needs("keys:write"),
  request: { query: z.strictObject(paginationQuery) },
  responses: {
    200: pageResponse("A page of keys.", ApiKeyListSchema),
    ...problemResponses(422),
  },
});

export const registerListApiKeys = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { items, total } = await keyPage(c.var.db, c.var.caller.businessId, query);
    return c.json(paginate(c, items, total, query), 200);
  });
