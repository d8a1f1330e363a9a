import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { releaseHold } from "../../holds/records";
import { needs } from "../../types/scopes";
import { deleteById } from "../operations";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "releaseHold",
  tags: ["Holds"],
  summary: "Release a hold",
  description:
    "Frees the seat (and the provider's time) at once. Releasing a hold that already ended (released, expired or consumed) changes nothing and also answers 204.",
  security: needs("bookings:write"),
  ...deleteById("hld_01jd3k5v7q8r9s0t1u2v3w4x5y", "The hold holds nothing."),
});

export const registerReleaseHold = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await releaseHold(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id, actorOf(c.var.caller));
    return c.body(null, 204);
  });
