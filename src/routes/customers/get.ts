import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { loadCustomer, toCustomer } from "../../customers/records";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { CustomerSchema } from "../../schemas/customers";
import { needs } from "../../types/scopes";
import { conditionalGet } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getCustomer",
  tags: ["Customers"],
  summary: "Get a customer",
  security: needs("customers:read"),
  ...conditionalGet(CustomerSchema, "The customer.", "cus_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const registerGetCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadCustomer(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return respondConditionally(c, etagOf(row.updatedAt), () => toCustomer(row));
  });
