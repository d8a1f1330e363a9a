import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import { providers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bearerSecurity, pageResponse, problemResponses } from "../../lib/openapi";
import { offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { z } from "../../lib/zod";
import { ProviderListSchema, toProvider } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listProviders",
  tags: ["Providers"],
  summary: "List providers",
  description: "Active providers unless `active=false` is given; newest first.",
  security: bearerSecurity,
  request: {
    query: z.strictObject({
      ...paginationQuery,
      active: z
        .enum(["true", "false"])
        .default("true")
        .openapi({ description: "`true` (default) for active providers, `false` for inactive ones." }),
    }),
  },
  responses: {
    200: pageResponse("A page of providers.", ProviderListSchema),
    ...problemResponses(422),
  },
});

export const listProviders = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { page, limit, active } = c.req.valid("query");
    const where = and(eq(providers.businessId, c.var.caller.businessId), eq(providers.active, active === "true"));
    const [rows, [totals]] = await c.var.db.batch([
      c.var.db
        .select()
        .from(providers)
        .where(where)
        .orderBy(desc(providers.id))
        .limit(limit)
        .offset(offsetOf({ page, limit })),
      c.var.db.select({ total: count() }).from(providers).where(where),
    ]);
    return c.json(paginate(c, rows.map(toProvider), totals?.total ?? 0, { page, limit }), 200);
  });
