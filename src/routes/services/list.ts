import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bind, preparedOnce } from "../../db/prepared";
import { serviceProviders, services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bearerSecurity, pageResponse, problemResponses } from "../../lib/openapi";
import { listRules, offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { z } from "../../lib/zod";
import { readWithKey } from "../../middleware/key-check";
import { ServiceListSchema, toService } from "../../schemas/services";

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

/** A page of services, its total and the page's provider links: one prepared batch per isolate. */
const listQueries = (db: Database) =>
  preparedOnce(db, "services-list", () => {
    const where = and(
      eq(services.businessId, sql.placeholder("businessId")),
      eq(services.active, sql.placeholder("active")),
    );
    const page = () =>
      db
        .select()
        .from(services)
        .where(where)
        .orderBy(desc(services.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"));
    const onPage = page().as("on_page");
    return {
      page: page().prepare(),
      total: db.select({ total: count() }).from(services).where(where).prepare(),
      links: db
        .select({ serviceId: serviceProviders.serviceId, providerId: serviceProviders.providerId })
        .from(serviceProviders)
        .where(
          and(
            eq(serviceProviders.businessId, sql.placeholder("businessId")),
            inArray(serviceProviders.serviceId, db.select({ id: onPage.id }).from(onPage)),
          ),
        )
        .orderBy(serviceProviders.serviceId, serviceProviders.providerId)
        .prepare(),
    };
  });

export const listServices = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { page, limit, active } = c.req.valid("query");
    const queries = listQueries(c.var.db);
    // Placeholders are bound as they are: the boolean column takes 1 or 0.
    const values = { businessId: c.var.caller.businessId, active: active === "true" ? 1 : 0 };
    const paged = { ...values, limit, offset: offsetOf({ page, limit }) };
    const [rows, [totals], links] = await readWithKey(c, [
      bind(queries.page, paged),
      bind(queries.total, values),
      bind(queries.links, paged),
    ]);
    const linked = new Map<string, string[]>(rows.map((row) => [row.id, []]));
    for (const link of links) linked.get(link.serviceId)?.push(link.providerId);
    const data = rows.map((row) => toService(row, linked.get(row.id) ?? []));
    return c.json(paginate(c, data, totals?.total ?? 0, { page, limit }), 200);
  });
