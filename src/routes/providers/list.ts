import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { paginate, paginationQuery } from "../../lists/pagination";
import { providerPage } from "../../providers/records";
import { activeFilter } from "../../schemas/fields";
import { needs } from "../../types/scopes";
import { ProviderListSchema } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listProviders",
  tags: ["Providers"],
  summary: "List providers",
  description: "Active providers unless `active=false` is given; newest first.",
  security: needs("catalog:read"),
  request: {
    query: z.strictObject({
      ...paginationQuery,
      active: activeFilter("providers"),
    }),
  },
  responses: {
    200: pageResponse("A page of providers.", ProviderListSchema),
    ...problemResponses(422),
  },
});

export const registerListProviders = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { active, ...query } = c.req.valid("query");
    const { items, total } = await providerPage(c.var.db, c.var.caller.businessId, {
      ...query,
      active: active === "true",
    });
    return c.json(paginate(c, items, total, query), 200);
  });
