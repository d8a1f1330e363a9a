import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { bearerSecurity, conditionalGet } from "../../lib/openapi";
import { ServiceSchema, toService } from "../../schemas/services";
import { loadService } from "./load";
import { providerIdsOf } from "./providers";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getService",
  tags: ["Services"],
  summary: "Get a service",
  security: bearerSecurity,
  ...conditionalGet(ServiceSchema, "The service.", "svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const getService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { businessId } = c.var.caller;
    const row = await loadService(c.var.db, businessId, c.req.valid("param").id);
    const providerIds = (await providerIdsOf(c.var.db, businessId, [row.id])).get(row.id) ?? [];
    return respondConditionally(c, etagOf(row.version), () => toService(row, providerIds));
  });
