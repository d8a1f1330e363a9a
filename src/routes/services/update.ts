import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { assertIfMatch, etagOf, ifMatchTags } from "../../lib/etag";
import { bearerSecurity, bodyProblems, etagHeader, idParam, ifMatchHeader, problemResponses } from "../../lib/openapi";
import { loadService } from "./load";
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
    headers: ifMatchHeader,
    body: { required: true, content: { "application/json": { schema: UpdateServiceSchema } } },
  },
  responses: {
    200: {
      description: "The updated service.",
      headers: etagHeader,
      content: { "application/json": { schema: ServiceSchema } },
    },
    ...problemResponses(404, 412, ...bodyProblems),
  },
});

export const updateService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const changes = c.req.valid("json");
    const { businessId } = c.var.caller;
    let where = and(eq(services.businessId, businessId), eq(services.id, id));
    let updatedAt = new Date();
    if (ifMatchTags(c) !== undefined) {
      // Check the tag, then write only if nothing changed in between (compare-and-set on updatedAt).
      const current = await loadService(c.var.db, businessId, id);
      assertIfMatch(c, etagOf(current.updatedAt));
      where = and(where, eq(services.updatedAt, current.updatedAt));
      updatedAt = new Date(Math.max(updatedAt.getTime(), Date.parse(current.updatedAt) + 1));
    }
    const [row] = await c.var.db
      .update(services)
      .set({ ...changes, updatedAt: updatedAt.toISOString() })
      .where(where)
      .returning();
    if (!row && ifMatchTags(c) !== undefined) {
      throw new ApiError("precondition_failed", "The service changed while this request ran; fetch it again.");
    }
    if (!row) throw new ApiError("not_found", `No service ${id}.`);
    c.header("ETag", etagOf(row.updatedAt));
    return c.json(toService(row), 200);
  });
