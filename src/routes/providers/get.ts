import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { loadProvider, toProvider } from "../../providers/records";
import { needs } from "../../types/scopes";
import { conditionalGet } from "../operations";
import { ProviderSchema } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getProvider",
  tags: ["Providers"],
  summary: "Get a provider",
  security: needs("catalog:read"),
  ...conditionalGet(ProviderSchema, "The provider.", "prv_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const registerGetProvider = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadProvider(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return respondConditionally(c, etagOf(row.version), () => toProvider(row));
  });
