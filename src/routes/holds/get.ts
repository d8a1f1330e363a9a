import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { loadHold } from "../../holds/records";
import { HoldSchema } from "../../schemas/holds";
import { needs } from "../../types/scopes";
import { readById } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getHold",
  tags: ["Holds"],
  summary: "Get a hold",
  description: "The hold as its service's calendar knows it now: a HELD hold past `expiresAt` reads EXPIRED.",
  security: needs("bookings:read"),
  ...readById("hld_01jd3k5v7q8r9s0t1u2v3w4x5y", "The hold.", HoldSchema),
});

export const registerGetHold = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { hold } = await loadHold(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(hold, 200);
  });
