import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import { services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bearerSecurity, pageResponse, problemResponses } from "../../lib/openapi";
import { listRules, offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { providerIdsOf } from "./providers";
import { ServiceListSchema, toService } from "./schemas";

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
    const where = and(eq(services.businessId, c.var.caller.businessId), eq(services.active, active === "true"));
    const [rows, [totals]] = await c.var.db.batch([
      c.var.db
        .select()
        .from(services)
        .where(where)
        .orderBy(desc(services.id))
        .limit(limit)
        .offset(offsetOf({ page, limit })),
      c.var.db.select({ total: count() }).from(services).where(where),
    ]);
    const linked = await providerIdsOf(
      c.var.db,
      c.var.caller.businessId,
      rows.map((row) => row.id),
    );
    const data = rows.map((row) => toService(row, linked.get(row.id) ?? []));
    return c.json(paginate(c, data, totals?.total ?? 0, { page, limit }), 200);
  });
