import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { throwRefusal } from "../../bookings/refusal";
import { type HoldResult, placeHold } from "../../calendar";
import { holds } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { bearerSecurity, bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { CreateHoldSchema, HoldSchema } from "../../schemas/holds";
import { loadBookableService } from "../../services/bookable";

/** Live holds one API key may have at once, so nobody can freeze a calendar. */
export const MAX_LIVE_HOLDS_PER_KEY = 50;

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createHold",
  tags: ["Holds"],
  summary: "Keep a seat for a few minutes",
  description: `Checks the same rules as a booking and keeps the seat (and, on a service with providers, the person's time) until \`expiresAt\` (\`ttlSeconds\` from now). Book it with \`POST /bookings\` and \`holdId\`; \`DELETE /holds/{id}\` frees it at once; otherwise it frees itself on time. At most ${MAX_LIVE_HOLDS_PER_KEY} live holds per API key (\`409 hold_limit_reached\` beyond). Refusals are those of \`POST /bookings\`.`,
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: CreateHoldSchema } } } },
  responses: {
    201: jsonResponse("The hold; `Location` points at it.", HoldSchema, { required: ["Location"] }),
    ...problemResponses(409, 503, ...bodyProblems),
  },
});

export const createHold = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const { businessId, keyId } = c.var.caller;
    const now = Date.now();
    const { service, providers } = await loadBookableService(c.var.db, businessId, body.serviceId, {
      providerId: body.providerId,
    });
    const id = newId("hold", now);
    // The key's place is taken before the calendar is asked, counted and inserted in one
    // statement, so a burst cannot pass the limit; it is given back if the calendar refuses.
    const expiresAt = new Date(now + body.ttlSeconds * 1000).toISOString();
    const { meta } = await c.env.DB.prepare(
      `INSERT INTO holds (id, business_id, service_id, api_key_id, expires_at, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE (SELECT count(*) FROM holds WHERE api_key_id = ?4 AND expires_at > ?6 AND ended_at IS NULL) < ?7`,
    )
      .bind(id, businessId, service.id, keyId, expiresAt, new Date(now).toISOString(), MAX_LIVE_HOLDS_PER_KEY)
      .run();
    if (meta.changes === 0) {
      throw new ApiError(
        "hold_limit_reached",
        `This API key has ${MAX_LIVE_HOLDS_PER_KEY} live holds; book or release one first.`,
      );
    }
    const giveBack = () => c.var.db.delete(holds).where(eq(holds.id, id));
    const result: HoldResult = await placeHold(c.env, {
      holdId: id,
      service,
      startTime: body.startTime,
      endTime: body.endTime,
      ttlMs: body.ttlSeconds * 1000,
      providers,
      providerId: body.providerId ?? null,
    }).catch(async (error: unknown) => {
      // Unanswered (a reset): a hold the calendar may have placed still expires on its own.
      await giveBack().catch(() => {});
      throw error;
    });
    if (!result.ok) {
      await giveBack();
      throwRefusal(result.refusal);
    }
    const { hold } = result;
    await c.var.db.update(holds).set({ expiresAt: hold.expiresAt, createdAt: hold.createdAt }).where(eq(holds.id, id));
    c.header("Location", `/api/v1/holds/${id}`);
    return c.json(hold, 201);
  });
