import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { calendarOf } from "../../calendar/client";
import { services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { assertIfMatch, etagOf, ifMatchTags } from "../../lib/etag";
import {
  bearerSecurity,
  bodyProblems,
  idParam,
  ifMatchHeader,
  jsonResponse,
  problemResponses,
} from "../../lib/openapi";
import { loadService } from "./load";
import { assertProvidersExist, providerIdsOf, replaceProviders } from "./providers";
import { ServiceSchema, toService, UpdateServiceSchema } from "./schemas";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateService",
  tags: ["Services"],
  summary: "Change a service",
  description:
    "Changes apply to the next booking and to the availability calendar at once; existing bookings are kept as booked. Send at least one field (else 422); the schedule rules of `POST /services` apply. With `If-Match`, the change applies only if the service still has that ETag (else 412).",
  security: bearerSecurity,
  request: {
    params: idParam("svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    headers: ifMatchHeader,
    body: { required: true, content: { "application/json": { schema: UpdateServiceSchema } } },
  },
  responses: {
    200: jsonResponse("The updated service.", ServiceSchema, { required: ["ETag"] }),
    ...problemResponses(404, 412, ...bodyProblems),
  },
});

export const updateService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { providerIds, ...changes } = c.req.valid("json");
    const { businessId } = c.var.caller;
    const { db } = c.var;
    if (providerIds) await assertProvidersExist(db, businessId, providerIds);
    let where = and(eq(services.businessId, businessId), eq(services.id, id));
    let updatedAt = new Date();
    if (ifMatchTags(c) !== undefined) {
      // Check the tag, then write only if nothing changed in between (compare-and-set on the version).
      const current = await loadService(db, businessId, id);
      assertIfMatch(c, etagOf(current.version));
      where = and(where, eq(services.version, current.version));
      updatedAt = new Date(Math.max(updatedAt.getTime(), Date.parse(current.updatedAt) + 1));
    }
    const stamp = updatedAt.toISOString();
    const update = db
      .update(services)
      .set({ ...changes, updatedAt: stamp, version: sql`${services.version} + 1` })
      .where(where)
      .returning();
    // The provider links change in the same batch, and only if this update won.
    const [rows] = providerIds
      ? await db.batch([update, ...replaceProviders(db, id, providerIds, stamp)])
      : [await update];
    const row = rows[0];
    if (!row && ifMatchTags(c) !== undefined) {
      throw new ApiError("precondition_failed", "The service changed while this request ran; fetch it again.");
    }
    if (!row) throw new ApiError("not_found", `No service ${id}.`);
    // Before the 200: from here on the calendar refuses what was decided against the old settings
    // (if it cannot be told, the change is saved but the answer is a 503 to retry).
    await calendarOf(c.env, businessId, id).serviceChanged(row.version);
    c.header("ETag", etagOf(row.version));
    const linked = providerIds ?? (await providerIdsOf(db, businessId, [id])).get(id) ?? [];
    return c.json(toService(row, linked), 200);
  });
