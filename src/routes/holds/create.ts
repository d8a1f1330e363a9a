import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, count, eq, gt, isNull } from "drizzle-orm";
import { calendarOf, snapshotOf, throwRefusal } from "../../calendar/client";
import type { HoldResult } from "../../calendar/hold-steps";
import { providerSnapshotOf } from "../../calendar/provider/client";
import { holds, services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { bearerSecurity, bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { providersOfService } from "../services/providers";
import { CreateHoldSchema, HoldSchema } from "./schemas";

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
    const [[service], performers, [live]] = await c.var.db.batch([
      c.var.db
        .select()
        .from(services)
        .where(and(eq(services.businessId, businessId), eq(services.id, body.serviceId)))
        .limit(1),
      providersOfService(c.var.db, businessId, body.serviceId),
      c.var.db
        .select({ n: count() })
        .from(holds)
        .where(and(eq(holds.apiKeyId, keyId), gt(holds.expiresAt, new Date(now).toISOString()), isNull(holds.endedAt))),
    ]);
    if (!service) {
      throw new ApiError("service_not_found", `No service ${body.serviceId}.`, {
        errors: [{ path: "serviceId", message: "No such service." }],
      });
    }
    if (!service.active) {
      throw new ApiError("service_inactive", `Service ${body.serviceId} is not active.`, {
        errors: [{ path: "serviceId", message: "The service is not active." }],
      });
    }
    if ((live?.n ?? 0) >= MAX_LIVE_HOLDS_PER_KEY) {
      throw new ApiError(
        "hold_limit_reached",
        `This API key has ${MAX_LIVE_HOLDS_PER_KEY} live holds; book or release one first.`,
      );
    }
    const providers = performers.map((row) => providerSnapshotOf(row.provider));
    if (body.providerId !== undefined && !providers.some((p) => p.id === body.providerId)) {
      throw new ApiError("validation_failed", `Provider ${body.providerId} does not perform this service.`, {
        errors: [{ path: "providerId", message: "Not one of the service's providerIds." }],
      });
    }
    const id = newId("hold", now);
    const result: HoldResult = await calendarOf(c.env, businessId, service.id).placeHold({
      holdId: id,
      service: snapshotOf(service),
      startTime: body.startTime,
      endTime: body.endTime,
      ttlMs: body.ttlSeconds * 1000,
      providers,
      providerId: body.providerId ?? null,
    });
    if (!result.ok) throwRefusal(result.refusal);
    const { hold } = result;
    await c.var.db.insert(holds).values({
      id,
      businessId,
      serviceId: service.id,
      apiKeyId: keyId,
      expiresAt: hold.expiresAt,
      createdAt: hold.createdAt,
    });
    c.header("Location", `/api/v1/holds/${id}`);
    return c.json(hold, 201);
  });
