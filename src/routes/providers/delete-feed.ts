import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { revokeFeed } from "../../feeds/records";
import { needs } from "../../types/scopes";
import { deleteById } from "../operations";

const route = createRoute({
  method: "delete",
  path: "/{id}/feed",
  operationId: "deleteProviderFeed",
  tags: ["Providers"],
  summary: "End a provider's calendar feed",
  description:
    "The feed's address answers 404 from now on. Ending a feed that does not exist (never issued, or ended already) is a 204 too: afterwards the provider has none either way.",
  security: needs("catalog:write"),
  ...deleteById("prv_01jd3k5v7q8r9s0t1u2v3w4x5y", "The provider has no feed now."),
});

export const registerDeleteProviderFeed = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await revokeFeed(c.var.db, c.var.caller.businessId, c.req.valid("param").id, actorOf(c.var.caller));
    return c.body(null, 204);
  });
