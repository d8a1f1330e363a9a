import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { calendarOf, snapshotOf } from "../../calendar/client";
import { slotsBetween } from "../../calendar/rules";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { bearerSecurity, idParam, problemResponses } from "../../lib/openapi";
import { utcDateTime } from "../bookings/schemas";
import { loadService } from "./load";

const DAY = 86_400_000;
const MAX_RANGE_DAYS = 31;
/** The most slots one response lists (a 1-minute grid around the clock would be 44,640 in 31 days). */
export const MAX_SLOTS = 2_000;

const SlotSchema = z
  .object({
    startTime: z.string().openapi({ format: "date-time" }),
    endTime: z.string().openapi({ format: "date-time" }),
    capacity: z.number().int(),
    booked: z.number().int().openapi({ description: "Active bookings that overlap the slot, buffers included." }),
    remaining: z.number().int(),
    bookable: z.boolean().openapi({
      description: "A seat is left, the service is active, and the slot meets the notice and horizon rules now.",
    }),
  })
  .openapi("Slot");

const AvailabilitySchema = z
  .object({
    serviceId: z.string(),
    timezone: z.string(),
    from: z.string().openapi({ format: "date-time" }),
    to: z.string().openapi({ format: "date-time" }),
    slots: z.array(SlotSchema),
  })
  .openapi("Availability");

const route = createRoute({
  method: "get",
  path: "/{id}/availability",
  operationId: "getServiceAvailability",
  tags: ["Services"],
  summary: "The live slot calendar",
  description: `Every slot of the working hours that starts in [from, to), with its live seat counts. The range is at most ${MAX_RANGE_DAYS} days; from defaults to now and to to from + 7 days. One response lists at most ${MAX_SLOTS} slots: a range holding more is a 422 \`validation_failed\` on \`to\` whose detail names the latest \`to\` that fits; page through longer ranges by moving \`from\`.`,
  security: bearerSecurity,
  request: {
    params: idParam("svc_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    query: z.strictObject({ from: utcDateTime.optional(), to: utcDateTime.optional() }),
  },
  responses: {
    200: { description: "The slots.", content: { "application/json": { schema: AvailabilitySchema } } },
    ...problemResponses(404, 422),
  },
});

export const getAvailability = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const from = query.from ? Date.parse(query.from) : Date.now();
    const to = query.to ? Date.parse(query.to) : from + 7 * DAY;
    if (to <= from || to - from > MAX_RANGE_DAYS * DAY) {
      throw new ApiError("validation_failed", `Use a range with from < to of at most ${MAX_RANGE_DAYS} days.`, {
        errors: [{ path: "to", message: `Must be after from and at most ${MAX_RANGE_DAYS} days later.` }],
      });
    }
    const service = await loadService(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    const rules = snapshotOf(service);
    // Counted here, stopping at the bound, so an oversized range never reaches the calendar.
    const overflow = slotsBetween(rules, from, to, MAX_SLOTS)[MAX_SLOTS];
    if (overflow) {
      const fits = new Date(overflow.start).toISOString();
      throw new ApiError(
        "validation_failed",
        `This range holds more than ${MAX_SLOTS} slots (the service has one every ${rules.slotIntervalMinutes} minutes). Narrow it: with this from, use a to of at most ${fits}, then continue with from=${fits}.`,
        {
          errors: [
            { path: "to", message: `Must be at most ${fits} for this from: at most ${MAX_SLOTS} slots per call.` },
          ],
        },
      );
    }
    const slots = await calendarOf(c.env, service.businessId, service.id).availability(rules, from, to);
    return c.json(
      {
        serviceId: service.id,
        timezone: service.timezone,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        slots: service.active ? slots : slots.map((slot) => ({ ...slot, bookable: false })),
      },
      200,
    );
  });
