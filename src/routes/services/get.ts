import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { ServiceSchema } from "../../schemas/services";
import { findService } from "../../services/records";
import { needs } from "../../types/scopes";
import { conditionalGet } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getService",
  tags: ["Services"],
  summary: "Get a service",
  security: needs("catalog:read"),
  ...conditionalGet(ServiceSchema, "The service.", "svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const registerGetService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { service, version } = await findService(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return respondConditionally(c, etagOf(version), () => service);
  });
