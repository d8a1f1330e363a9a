import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { etagOf, notModified } from "../../lib/etag";
import {
  bearerSecurity,
  etagHeader,
  idParam,
  ifNoneMatchHeader,
  notModifiedResponse,
  problemResponses,
} from "../../lib/openapi";
import { loadService } from "./load";
import { ServiceSchema, toService } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getService",
  tags: ["Services"],
  summary: "Get a service",
  security: bearerSecurity,
  request: { params: idParam("svc_01jd3k5v7q8r9s0t1u2v3w4x5y"), headers: ifNoneMatchHeader },
  responses: {
    200: {
      description: "The service.",
      headers: etagHeader,
      content: { "application/json": { schema: ServiceSchema } },
    },
    ...notModifiedResponse,
    ...problemResponses(404, 422),
  },
});

export const getService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadService(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    const etag = etagOf(row.updatedAt);
    c.header("ETag", etag);
    if (notModified(c, etag)) return c.body(null, 304);
    return c.json(toService(row), 200);
  });
