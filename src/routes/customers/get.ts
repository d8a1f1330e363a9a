import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { etagOf, respondConditionally } from "../../lib/etag";
import { bearerSecurity, conditionalGet } from "../../lib/openapi";
import { CustomerSchema, toCustomer } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getCustomer",
  tags: ["Customers"],
  summary: "Get a customer",
  security: bearerSecurity,
  ...conditionalGet(CustomerSchema, "The customer.", "cus_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const getCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const [row] = await c.var.db
      .select()
      .from(customers)
      .where(and(eq(customers.businessId, c.var.caller.businessId), eq(customers.id, id)))
      .limit(1);
    if (!row) throw new ApiError("not_found", `No customer ${id}.`);
    return respondConditionally(c, etagOf(row.updatedAt), () => toCustomer(row));
  });
