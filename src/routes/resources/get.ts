import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { loadResource, toResource } from "../../resources/records";
import { ResourceSchema } from "../../schemas/resources";
import { needs } from "../../types/scopes";
import { conditionalGet } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getResource",
  tags: ["Resources"],
  summary: "Get a resource",
  security: needs("catalog:read"),
  ...conditionalGet(ResourceSchema, "The resource.", "res_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const registerGetResource = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadResource(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return respondConditionally(c, etagOf(row.version), () => toResource(row));
  });
