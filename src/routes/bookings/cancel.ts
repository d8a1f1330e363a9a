import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { changeBookingStatus } from "../../bookings/change-status";
import type { AppEnv } from "../../env";
import { answerOnce } from "../../lib/idempotency";
import { z } from "../../lib/zod";
import { withManageUrl } from "../../manage-links/present";
import { BookingSchema, cancellationReason } from "../../schemas/bookings";
import { needs } from "../../types/scopes";
import { cancelOperation } from "../operations";

const CancelBookingSchema = z.strictObject({ reason: cancellationReason }).openapi("CancelBooking");

const route = createRoute({
  method: "post",
  path: "/{id}/cancel",
  operationId: "cancelBooking",
  tags: ["Bookings"],
  summary: "Cancel a booking",
  description: [
    "Frees the slot at once. Cancelling a booking that is not PENDING or CONFIRMED is a 409 `invalid_transition`. The body is optional: none, an empty one or `{}` cancel without a reason.",
    "`Idempotency-Key` works as on `POST /bookings`: a replay answers the first result with `Idempotent-Replayed: true`.",
  ].join("\n\n"),
  security: needs("bookings:write"),
  ...cancelOperation("bkg_01jd3k5v7q8r9s0t1u2v3w4x5y", CancelBookingSchema, {
    description: "The cancelled booking. `Idempotent-Replayed: true` on a replay.",
    schema: BookingSchema,
  }),
});

export const registerCancelBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    return answerOnce(c, body, 200, async (lock) => {
      const { booking, replayed } = await changeBookingStatus(c.env, c.var.db, c.var.caller.businessId, {
        bookingId: id,
        status: "CANCELLED",
        cancellationReason: body.reason ?? null,
        idempotency: lock,
        actor: actorOf(c.var.caller),
      });
      return { body: await withManageUrl(c.env, c.var.caller, booking), replayed };
    });
  });
