import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { providers } from "../../db/schema";
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
import { configureCalendar } from "./configure";
import { loadProvider } from "./load";
import { ProviderSchema, toProvider, UpdateProviderSchema } from "./schemas";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateProvider",
  tags: ["Providers"],
  summary: "Change a provider",
  description:
    "Given fields replace the stored ones (`dateOverrides` as a whole list). Once this answers 200, no new booking is decided against the old settings; existing bookings are kept.",
  security: bearerSecurity,
  request: {
    params: idParam("prv_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    headers: ifMatchHeader,
    body: { required: true, content: { "application/json": { schema: UpdateProviderSchema } } },
  },
  responses: {
    200: jsonResponse("The updated provider.", ProviderSchema, { required: ["ETag"] }),
    ...problemResponses(404, 412, ...bodyProblems, 503),
  },
});

export const updateProvider = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const changes = c.req.valid("json");
    const { businessId } = c.var.caller;
    let where = and(eq(providers.businessId, businessId), eq(providers.id, id));
    if (ifMatchTags(c) !== undefined) {
      // Check the tag, then write only if nothing changed in between (compare-and-set on version).
      const current = await loadProvider(c.var.db, businessId, id);
      assertIfMatch(ifMatchTags(c), etagOf(current.version));
      where = and(where, eq(providers.version, current.version));
    }
    const [row] = await c.var.db
      .update(providers)
      .set({ ...changes, version: sql`${providers.version} + 1`, updatedAt: new Date().toISOString() })
      .where(where)
      .returning();
    if (!row && ifMatchTags(c) !== undefined) {
      throw new ApiError("precondition_failed", "The provider changed while this request ran; fetch it again.");
    }
    if (!row) throw new ApiError("not_found", `No provider ${id}.`);
    await configureCalendar(c.env, row);
    c.header("ETag", etagOf(row.version));
    return c.json(toProvider(row), 200);
  });
