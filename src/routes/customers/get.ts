import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { etagOf, notModified } from "../../lib/etag";
import {
  bearerSecurity,
  etagHeader,
  idParam,
  ifNoneMatchHeader,
  notModifiedResponse,
  problemResponses,
} from "../../lib/openapi";
import { CustomerSchema, toCustomer } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getCustomer",
  tags: ["Customers"],
  summary: "Get a customer",
  security: bearerSecurity,
  request: { params: idParam("cus_01jd3k5v7q8r9s0t1u2v3w4x5y"), headers: ifNoneMatchHeader },
  responses: {
    200: {
      description: "The customer.",
      headers: etagHeader,
      content: { "application/json": { schema: CustomerSchema } },
    },
    ...notModifiedResponse,
    ...problemResponses(404, 422),
  },
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
    const etag = etagOf(row.updatedAt);
    c.header("ETag", etag);
    if (notModified(c, etag)) return c.body(null, 304);
    return c.json(toCustomer(row), 200);
  });
