import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { customerPage } from "../../customers/records";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { cursorQuery, cursorRules, paginateByCursor } from "../../lists/cursor";
import { listRules, paginationQuery } from "../../lists/pagination";
import { batchReader } from "../../middleware/key-check";
import { CustomerListSchema } from "../../schemas/customers";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listCustomers",
  tags: ["Customers"],
  summary: "List and search customers",
  description: `Newest first. \`search\` matches a substring of the name or e-mail, case-insensitively; it is trimmed, and an empty one is a 422. Erased customers are not listed. A term of 3 or more characters is looked up in a trigram index; a shorter one is tested against every customer of the business (same results, a cost that grows with the customers).\n\n${listRules}\n\n${cursorRules}`,
  security: needs("customers:read"),
  request: {
    query: z.strictObject({
      ...paginationQuery,
      ...cursorQuery(["cus_01jd3k5v7q8r9s0t1u2v3w4x5y"]),
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

export const registerListCustomers = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const list = await customerPage(c.var.db, batchReader(c), c.var.caller.businessId, query);
    return c.json(paginateByCursor(c, list, query), 200);
  });
