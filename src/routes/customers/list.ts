import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, count, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bind, preparedOnce } from "../../db/prepared";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bearerSecurity, pageResponse, problemResponses } from "../../lib/openapi";
import { listRules, offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { z } from "../../lib/zod";
import { readWithKey } from "../../middleware/key-check";
import { CustomerListSchema, toCustomer } from "../../schemas/customers";

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

/** A page of customers and its total, with or without a search term: prepared once per isolate. */
const listQueries = (db: Database, searching: boolean) =>
  preparedOnce(db, `customers-list:${searching}`, () => {
    const term = sql.placeholder("term");
    // instr() is a plain substring test: no LIKE wildcards to escape, and both sides are lower-cased.
    const where = and(
      eq(customers.businessId, sql.placeholder("businessId")),
      isNull(customers.erasedAt),
      searching
        ? or(
            sql`instr(${customers.nameNormalized}, ${term}) > 0`,
            sql`instr(${customers.emailNormalized}, ${term}) > 0`,
          )
        : undefined,
    );
    return {
      page: db
        .select()
        .from(customers)
        .where(where)
        .orderBy(desc(customers.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
      total: db.select({ total: count() }).from(customers).where(where).prepare(),
    };
  });

export const listCustomers = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { page, limit, search } = c.req.valid("query");
    const queries = listQueries(c.var.db, search !== undefined);
    const values = { businessId: c.var.caller.businessId, term: search?.toLowerCase() };
    const [rows, [totals]] = await readWithKey(c, [
      bind(queries.page, { ...values, limit, offset: offsetOf({ page, limit }, "search") }),
      bind(queries.total, values),
    ]);
    return c.json(paginate(c, rows.map(toCustomer), totals?.total ?? 0, { page, limit }), 200);
  });
