import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listRules, paginate, paginationQuery } from "../../lists/pagination";
import { resourcePage } from "../../resources/records";
import { activeFilter } from "../../schemas/fields";
import { ResourceListSchema } from "../../schemas/resources";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listResources",
  tags: ["Resources"],
  summary: "List resources",
  description: `Active resources unless \`active=false\` is given; newest first.\n\n${listRules}`,
  security: needs("catalog:read"),
  request: {
    query: z.strictObject({
      ...paginationQuery,
      active: activeFilter("resources"),
    }),
  },
  responses: {
    200: pageResponse("A page of resources.", ResourceListSchema),
    ...problemResponses(422),
  },
});

export const registerListResources = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { active, ...query } = c.req.valid("query");
    const { items, total } = await resourcePage(c.var.db, c.var.caller.businessId, {
      ...query,
      active: active === "true",
    });
    return c.json(paginate(c, items, total, query), 200);
  });
