import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, count, desc, eq, isNull, or, sql } from "drizzle-orm";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bearerSecurity, pageResponse, problemResponses } from "../../lib/openapi";
import { listRules, offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { CustomerListSchema, toCustomer } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listCustomers",
  tags: ["Customers"],
  summary: "List and search customers",
  description: `Newest first. \`search\` matches a substring of the name or e-mail, case-insensitively; it is trimmed, and an empty one is a 422. Erased customers are not listed.\n\n${listRules}`,
  security: bearerSecurity,
  request: {
    query: z.strictObject({
      ...paginationQuery,
      search: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .openapi({ description: "Substring of name or e-mail; every character is literal.", example: "ada" }),
    }),
  },
  responses: {
    200: pageResponse("A page of customers.", CustomerListSchema),
    ...problemResponses(422),
  },
});

export const listCustomers = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { page, limit, search } = c.req.valid("query");
    const term = search?.toLowerCase();
    // instr() is a plain substring test: no LIKE wildcards to escape, and both sides are lower-cased.
    const where = and(
      eq(customers.businessId, c.var.caller.businessId),
      isNull(customers.erasedAt),
      term
        ? or(
            sql`instr(${customers.nameNormalized}, ${term}) > 0`,
            sql`instr(${customers.emailNormalized}, ${term}) > 0`,
          )
        : undefined,
    );
    const [rows, [totals]] = await c.var.db.batch([
      c.var.db
        .select()
        .from(customers)
        .where(where)
        .orderBy(desc(customers.id))
        .limit(limit)
        .offset(offsetOf({ page, limit }, "search")),
      c.var.db.select({ total: count() }).from(customers).where(where),
    ]);
    return c.json(paginate(c, rows.map(toCustomer), totals?.total ?? 0, { page, limit }), 200);
  });
