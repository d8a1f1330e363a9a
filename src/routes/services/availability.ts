import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type ProviderSnapshot, slotBeyond, slotCalendar } from "../../calendar";
import type { AppEnv } from "../../env";
import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../../lib/datetime";
import { ApiError } from "../../lib/errors";
import { bearerSecurity, idParam, jsonResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { providerSnapshotOf } from "../../providers/snapshot";
import { snapshotOf } from "../../services/snapshot";
import { loadService } from "./load";
import { providersOfService } from "./providers";

const DAY = 86_400_000;
const MAX_RANGE_DAYS = 31;
/** The most slots one response lists (a 1-minute grid around the clock would be 44,640 in 31 days). */
export const MAX_SLOTS = 2_000;

const SlotSchema = z
  .object({
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    capacity: z.number().int(),
    booked: z.number().int().openapi({ description: "Active bookings that overlap the slot, buffers included." }),
    held: z.number().int().openapi({ description: "Seats kept by live holds (`POST /holds`) that overlap the slot." }),
    remaining: z.number().int(),
    bookable: z.boolean().openapi({
      description: "A seat is left, the service is active, and the slot meets the notice and horizon rules now.",
    }),
    providers: z.array(z.string()).optional().openapi({
      description:
        "Services with providers only: the providers with a seat left then, sorted. On such a service `capacity`, `booked`, `held` and `remaining` count the sessions the providers offer then (each active, working, and not busy with another appointment), so `remaining` = `capacity` − `booked` − `held`; a booking made before the service had providers takes a seat in each of them.",
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
    `Rules the schema cannot express: \`from\` must be before \`to\`, and the range is at most ${MAX_RANGE_DAYS} days (else 422 \`validation_failed\` on \`to\`); \`from\` defaults to now and \`to\` to \`from\` + 7 days. One response lists at most ${MAX_SLOTS} slots: a range holding more is a 422 \`validation_failed\` on \`to\` whose detail names the latest \`to\` that fits; page through longer ranges by moving \`from\`.`,
    "On a service with providers each slot lists `providers`, the ids with a free seat then, and the counts are over their sessions; `providerId` shows one person's seats (not one of the service's providers: 422).",
    "An inactive service still lists its slots, none of them bookable.",
  ].join("\n\n"),
  security: bearerSecurity,
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
        description: "Only this provider's seats (one of the service's `providerIds`).",
      }),
    }),
  },
  responses: {
    200: jsonResponse("The slots.", AvailabilitySchema),
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
    const overflow = slotBeyond(rules, from, to, MAX_SLOTS);
    if (overflow !== undefined) {
      const fits = new Date(overflow).toISOString();
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
    const people = await peopleOf(c, service.id, query.providerId);
    const slots = await slotCalendar(c.env, rules, from, to, { people });
    return c.json(
      {
        serviceId: service.id,
        timezone: service.timezone,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        slots: slots.map((slot) => (service.active ? slot : { ...slot, bookable: false })),
      },
      200,
    );
  });

/** The providers of a service (or the one asked for); undefined for a service without providers. */
async function peopleOf(
  c: Context<AppEnv>,
  serviceId: string,
  providerId: string | undefined,
): Promise<ProviderSnapshot[] | undefined> {
  const rows = await providersOfService(c.var.db, c.var.caller.businessId, serviceId);
  if (rows.length === 0 && providerId === undefined) return undefined;
  const chosen = providerId === undefined ? rows : rows.filter((row) => row.provider.id === providerId);
  if (chosen.length === 0) {
    throw new ApiError("validation_failed", `Provider ${providerId} does not perform this service.`, {
      errors: [{ path: "providerId", message: "Not one of the service's providerIds." }],
    });
  }
  return chosen.map(({ provider }) => providerSnapshotOf(provider));
}
