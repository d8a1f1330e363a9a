import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../../lib/datetime";
import { idParam, jsonResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { batchReader } from "../../middleware/key-check";
import { MAX_RANGE_DAYS, MAX_SLOTS, serviceAvailability } from "../../services/availability";
import { needs } from "../../types/scopes";

const SlotSchema = z
  .object({
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    capacity: z.number().int(),
    booked: z.number().int().openapi({ description: "Active bookings that overlap the slot, buffers included." }),
    held: z.number().int().openapi({ description: "Seats kept by live holds (`POST /holds`) that overlap the slot." }),
    remaining: z.number().int(),
    bookable: z.boolean().openapi({
      description:
        "A seat is left, the service is active, the slot meets the notice and horizon rules now, and no booking limit is reached (the service's that day or week; on a service with providers, someone with a seat left is under their daily limit).",
    }),
    reason: z.enum(["limit_reached"]).optional().openapi({
      description:
        "Why a slot the notice and horizon rules allow is not bookable, where the slot calendar can say: `limit_reached` — the service's limit per day or per week is reached that day or week, or every provider with a seat left then is at their daily limit (a booking would be refused with this reason). Absent otherwise.",
    }),
    providers: z.array(z.string()).optional().openapi({
      description:
        "Services with providers only: the providers with a seat left then and under their daily limit, sorted (on a team, `providerMode: all`, every provider or none). On such a service `capacity`, `booked`, `held` and `remaining` count the sessions the providers offer then (each active, working, and not busy with another appointment), so `remaining` = `capacity` − `booked` − `held`; a booking made before the service had providers takes a seat in each of them.",
    }),
    resources: z.array(z.string()).optional().openapi({
      description:
        "Services with resources only: the resources with a unit free for the slot's session, sorted. A slot is bookable only when every resource the service needs (or the `resourceId` asked for) has one.",
    }),
  })
  .openapi("Slot");

const AvailabilitySchema = z
  .object({
    serviceId: z.string(),
    timezone: z.string(),
    from: utcTimestamp,
    to: utcTimestamp,
    slots: z.array(SlotSchema),
  })
  .openapi("Availability");

const route = createRoute({
  method: "get",
  path: "/{id}/availability",
  operationId: "getServiceAvailability",
  tags: ["Services"],
  summary: "The live slot calendar",
  description: [
    "Every slot of the working hours that starts in [from, to), with its live seat counts (`booked`, `held` by holds, `remaining`).",
    `Rules the schema cannot express: \`from\` must be before \`to\`, and the range is at most ${MAX_RANGE_DAYS} days (else 422 \`validation_failed\` on \`to\`); \`from\` defaults to now and \`to\` to \`from\` + 7 days, cut at 9999-12-31T23:59:59.999Z (the last instant the API writes; a \`from\` at it is a 422 on \`from\`, and a slot that would end later is not listed). One response lists at most ${MAX_SLOTS} slots: a range holding more is a 422 \`validation_failed\` on \`to\` whose detail names the latest \`to\` that fits; page through longer ranges by moving \`from\`.`,
    "On a service with providers each slot lists `providers`, the ids with a free seat then, and the counts are over their sessions; `providerId` shows one person's seats (not one of the service's providers: 422).",
    "On a service with resources a slot is bookable only when every resource has a unit free then; each slot lists in `resources` those that have one, and `resourceId` counts one resource only.",
    "An inactive service still lists its slots, none of them bookable.",
  ].join("\n\n"),
  security: needs("catalog:read"),
  request: {
    params: idParam("svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    query: z.strictObject({
      from: utcDateTime.optional().openapi({
        description: `Start of the range (inclusive); defaults to now. ${utcDateTimeRule}`,
        example: "2026-12-01T00:00:00Z",
      }),
      to: utcDateTime.optional().openapi({
        description: `End of the range (exclusive): after from, at most ${MAX_RANGE_DAYS} days later; defaults to from + 7 days. ${utcDateTimeRule}`,
        example: "2026-12-03T00:00:00Z",
      }),
      providerId: z.string().min(1).max(64).optional().openapi({
        description:
          "Only this provider's seats (one of the service's `providerIds`). On a team (`providerMode: all`) a booking asking for one of them still needs every one, and so do its slots.",
      }),
      resourceId: z.string().min(1).max(64).optional().openapi({
        description: "Count only this resource's units (one of the service's `resourceIds`; else 422).",
      }),
    }),
  },
  responses: {
    200: jsonResponse("The slots.", AvailabilitySchema),
    ...problemResponses(404, 422),
  },
});

export const registerGetServiceAvailability = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { businessId } = c.var.caller;
    const query = c.req.valid("query");
    return c.json(await serviceAvailability(c.env, c.var.db, businessId, id, query, batchReader(c)), 200);
  });
