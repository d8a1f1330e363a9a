import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { proposeServiceChange, serviceChanged } from "../../calendar";
import { type ServiceRow, services } from "../../db/schema";
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
import { ServiceSchema, toService, UpdateServiceSchema } from "../../schemas/services";
import { loadService } from "./load";
import { assertProvidersExist, providerIdsOf, replaceProviders } from "./providers";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateService",
  tags: ["Services"],
  summary: "Change a service",
  description:
    "Changes apply to the next booking and to the availability calendar at once; existing bookings are kept as booked (their times, provider and seat). Send at least one field (else 422); the schedule rules of `POST /services` apply. With `If-Match`, the change applies only if the service still has that ETag (else 412).\n\nA change that leaves fewer seats — a lower `capacity`, or `providerIds: []` on a service whose seats were counted per provider — is refused with `409 bookings_conflict` while upcoming bookings or live holds would be over the new seats; its `conflicts` list where (`at`, `bookingIds`, `providerId`). Adding providers to a service with bookings is allowed: a booking made before the service had providers keeps its seat and takes one in every provider's session at its time, until it is moved to a provider.",
  security: bearerSecurity,
  request: {
    params: idParam("svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    headers: ifMatchHeader,
    body: { required: true, content: { "application/json": { schema: UpdateServiceSchema } } },
  },
  responses: {
    200: jsonResponse("The updated service.", ServiceSchema, { required: ["ETag"] }),
    ...problemResponses(404, 409, 412, ...bodyProblems),
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
    const tagged = ifMatchTags(c) !== undefined;
    const proposal = await proposeSeats(c, id, changes.capacity, providerIds);
    if (tagged || proposal) {
      // Check the tag (or the proposal's version), then write only if nothing changed in between.
      const current = proposal?.current ?? (await loadService(db, businessId, id));
      if (tagged) assertIfMatch(c, etagOf(current.version));
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
    if (!row && tagged) {
      throw new ApiError("precondition_failed", "The service changed while this request ran; fetch it again.");
    }
    if (!row && proposal) {
      throw new ApiError("unavailable", "The service changed while this request ran; retry.", {
        headers: { "Retry-After": "1" },
      });
    }
    if (!row) throw new ApiError("not_found", `No service ${id}.`);
    // Before the 200: from here on the calendar refuses what was decided against the old settings
    // (if it cannot be told, the change is saved but the answer is a 503 to retry).
    await serviceChanged(c.env, businessId, id, row.version);
    c.header("ETag", etagOf(row.version));
    const linked = providerIds ?? (await providerIdsOf(db, businessId, [id])).get(id) ?? [];
    return c.json(toService(row, linked), 200);
  });

/**
 * A change that leaves fewer seats (a lower capacity, or a service with providers that stops
 * having any, whose seats were counted per person) is first proposed to the calendar, which
 * refuses it while upcoming bookings or live holds would be over the new seats (409
 * `bookings_conflict` listing where) and otherwise holds off commands decided against the old
 * settings until the PATCH confirms. Answers the service as read for the proposal, or undefined
 * when the change leaves no fewer seats.
 */
async function proposeSeats(
  c: Context<AppEnv>,
  id: string,
  capacity: number | undefined,
  providerIds: string[] | undefined,
): Promise<{ current: ServiceRow } | undefined> {
  if (capacity === undefined && providerIds?.length !== 0) return undefined;
  const { businessId } = c.var.caller;
  const current = await loadService(c.var.db, businessId, id);
  const before = (await providerIdsOf(c.var.db, businessId, [id])).get(id) ?? [];
  const after = providerIds ?? before;
  const fewer = (capacity ?? current.capacity) < current.capacity || (before.length > 0 && after.length === 0);
  if (!fewer) return undefined;
  const answer = await proposeServiceChange(c.env, businessId, id, {
    version: current.version + 1,
    capacity: capacity ?? current.capacity,
    withProviders: after.length > 0,
  });
  if (answer.ok) return { current };
  if (answer.reason === "changed_meanwhile") {
    throw new ApiError("unavailable", "The service changed while this request ran; retry.", {
      headers: { "Retry-After": "1" },
    });
  }
  throw new ApiError(
    "bookings_conflict",
    `Upcoming bookings would be over the new seats (${answer.conflicts.length} place${answer.conflicts.length === 1 ? "" : "s"} listed in conflicts): cancel or move them first, or keep the seats.`,
    { extensions: { conflicts: answer.conflicts } },
  );
}
