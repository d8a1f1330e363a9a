import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listRules, paginate, paginationQuery } from "../../lists/pagination";
import { batchReader } from "../../middleware/key-check";
import { activeFilter } from "../../schemas/fields";
import { ServiceListSchema } from "../../schemas/services";
import { servicePage } from "../../services/records";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listServices",
  tags: ["Services"],
  summary: "List the service catalog",
  description: `Active services unless \`active=false\` is given; newest first.\n\n${listRules}`,
  security: needs("catalog:read"),
  request: {
    query: z.strictObject({
      ...paginationQuery,
      active: activeFilter("services"),
    }),
  },
  responses: {
    200: pageResponse("A page of services.", ServiceListSchema),
    ...problemResponses(422),
  },
});

export const registerListServices = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { active, ...query } = c.req.valid("query");
    const { items, total } = await servicePage(c.var.db, batchReader(c), c.var.caller.businessId, {
      ...query,
      active: active === "true",
    });
    return c.json(paginate(c, items, total, query), 200);
  });
