import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { rescheduleBooking } from "../../bookings/reschedule";
import type { AppEnv } from "../../env";
import { utcDateTime } from "../../lib/datetime";
import { etagOf, ifMatchVersions } from "../../lib/etag";
import { answerOnce } from "../../lib/idempotency";
import {
  bodyProblems,
  idempotencyKeyHeader,
  idParam,
  ifMatchHeader,
  jsonResponse,
  problemResponses,
} from "../../lib/openapi";
import { z } from "../../lib/zod";
import { withManageUrl } from "../../manage-links/present";
import { BookingSchema } from "../../schemas/bookings";
import { needs } from "../../types/scopes";

const RescheduleBookingSchema = z
  .strictObject({
    startTime: utcDateTime.openapi({ example: "2026-12-02T11:00:00Z" }),
    endTime: utcDateTime.openapi({ example: "2026-12-02T11:30:00Z" }),
    providerId: z.string().min(1).max(64).optional().openapi({
      description: "Move to this provider (one of the service's `providerIds`); absent = the booking's own.",
    }),
  })
  .openapi("RescheduleBooking");

const route = createRoute({
  method: "post",
  path: "/{id}/reschedule",
  operationId: "rescheduleBooking",
  tags: ["Bookings"],
  summary: "Move a booking to another time",
  description:
    "PENDING and CONFIRMED bookings of an active service only (else `409 invalid_transition`, or `422 service_inactive`). The new time passes every rule of a new booking (duration = the service's, notice, horizon, working hours, seats; on a service with providers the provider's hours and other bookings), with the booking itself not counted. The booking keeps its id and status, its version moves on, and the old time is freed in the step that takes the new one. Refused: `409 slot_unavailable` and the booking is unchanged. Raises the `booking.rescheduled` webhook with `previousStartTime`, `previousEndTime` and `previousProviderId`.",
  security: needs("bookings:write"),
  request: {
    params: idParam("bkg_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    headers: idempotencyKeyHeader.extend(ifMatchHeader.shape),
    body: { required: true, content: { "application/json": { schema: RescheduleBookingSchema } } },
  },
  responses: {
    200: jsonResponse("The moved booking. `Idempotent-Replayed: true` on a replay.", BookingSchema, {
      required: ["ETag"],
      optional: ["Idempotent-Replayed"],
    }),
    ...problemResponses(404, 409, 412, 503, ...bodyProblems),
  },
});

export const registerRescheduleBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const expectedVersions = ifMatchVersions(c);
    const { businessId } = c.var.caller;
    return answerOnce(c, body, 200, async (lock) => {
      const moved = await rescheduleBooking(c.env, c.var.db, businessId, id, body, {
        expectedVersions,
        lock,
        actor: actorOf(c.var.caller),
      });
      return {
        body: await withManageUrl(c.env, c.var.caller, moved.booking),
        replayed: moved.replayed,
        headers: { ETag: etagOf(moved.version) },
      };
    });
  });
