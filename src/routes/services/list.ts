import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bearerSecurity, pageResponse, problemResponses } from "../../lib/openapi";
import { listRules, paginate, paginationQuery } from "../../lib/pagination";
import { z } from "../../lib/zod";
import { batchReader } from "../../middleware/key-check";
import { ServiceListSchema } from "../../schemas/services";
import { servicePage } from "../../services/records";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listServices",
  tags: ["Services"],
  summary: "List the service catalog",
  description: `Active services unless \`active=false\` is given; newest first.\n\n${listRules}`,
  security: bearerSecurity,
  request: {
    query: z.strictObject({
      ...paginationQuery,
      active: z
        .enum(["true", "false"])
        .default("true")
        .openapi({ description: "`true` (default) for active services, `false` for inactive ones." }),
    }),
  },
  responses: {
    200: pageResponse("A page of services.", ServiceListSchema),
    ...problemResponses(422),
  },
});

export const listServices = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { page, limit, active } = c.req.valid("query");
    const { items, total } = await servicePage(c.var.db, batchReader(c), c.var.caller.businessId, {
      page,
      limit,
      active: active === "true",
    });
    return c.json(paginate(c, items, total, { page, limit }), 200);
  });
