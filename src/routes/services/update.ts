import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { bearerSecurity, bodyProblems, idParam, problemResponses } from "../../lib/openapi";
import { ServiceSchema, toService, UpdateServiceSchema } from "./schemas";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateService",
  tags: ["Services"],
  summary: "Change a service",
  description:
    "Changes apply to the next booking and to the availability calendar at once; existing bookings are kept as booked.",
  security: bearerSecurity,
  request: {
    params: idParam("svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    body: { required: true, content: { "application/json": { schema: UpdateServiceSchema } } },
  },
  responses: {
    200: { description: "The updated service.", content: { "application/json": { schema: ServiceSchema } } },
    ...problemResponses(404, ...bodyProblems),
  },
});

export const updateService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const changes = c.req.valid("json");
    const [row] = await c.var.db
      .update(services)
      .set({ ...changes, updatedAt: new Date().toISOString() })
      .where(and(eq(services.businessId, c.var.caller.businessId), eq(services.id, id)))
      .returning();
    if (!row) throw new ApiError("not_found", `No service ${id}.`);
    return c.json(toService(row), 200);
  });
