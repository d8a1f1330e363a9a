import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { releaseHold as freeHold } from "../../calendar";
import { holds } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bearerSecurity, emptyResponse, idParam, problemResponses } from "../../lib/openapi";
import { loadHold } from "./load";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "releaseHold",
  tags: ["Holds"],
  summary: "Release a hold",
  description:
    "Frees the seat (and the provider's time) at once. Releasing a hold that already ended (released, expired or consumed) changes nothing and also answers 204.",
  security: bearerSecurity,
  request: { params: idParam("hld_01jd3k5v7q8r9s0t1u2v3w4x5y") },
  responses: { 204: emptyResponse("The hold holds nothing."), ...problemResponses(404, 422) },
});

export const releaseHold = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { businessId } = c.var.caller;
    const { serviceId } = await loadHold(c, id);
    await freeHold(c.env, businessId, serviceId, id);
    await c.var.db
      .update(holds)
      .set({ endedAt: new Date().toISOString() })
      .where(and(eq(holds.businessId, businessId), eq(holds.id, id)));
    return c.body(null, 204);
  });
