import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { rescheduleByLink } from "../../bookings/by-link";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { bodyProblems, publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { linkFor } from "../../manage-links/records";
import { ManagedBookingSchema, ManagedRescheduleSchema, manageTokenParam } from "../../schemas/manage-links";

const route = createRoute({
  method: "post",
  path: "/{token}/reschedule",
  operationId: "rescheduleManagedBooking",
  tags: ["Manage links"],
  summary: "Move the booking, by its manage link",
  description:
    "No API key. Moves the booking to a new time with its own provider, under every rule of `POST /bookings/{id}/reschedule` (409 `slot_unavailable` with a `reason`, 422 for times off the rules). Once that provider no longer performs the service, the booking goes to one of its current providers who is free then, chosen as for a new booking (the answer names them), or the move is a 409 `slot_unavailable` naming nobody; it is never a 422 on `providerId`, a field this call does not take. Inside the service's `rescheduleNoticeMinutes` or `cancellationNoticeMinutes` before the booking's current start, whichever is longer, it is a 409 `policy_window` whose `until` (and `detail`) says when moving ended, the booking's `reschedulableUntil`: a move frees the booking's time as a cancel does, so a link cannot move a booking it may no longer cancel. The calendar checks this in the step that moves the booking. The link stays the same. Tokens and limits as `GET /manage/{token}`. A form post (`application/x-www-form-urlencoded`, sent by the manage page from this origin) is the page's own: it answers HTML.",
  security: [],
  request: {
    params: manageTokenParam,
    body: { required: true, content: { "application/json": { schema: ManagedRescheduleSchema } } },
  },
  responses: {
    200: publicJsonResponse("The moved booking.", ManagedBookingSchema),
    ...publicProblemResponses(404, 409, 429, 503, ...bodyProblems),
  },
});

/** `POST /manage/{token}/reschedule`. */
export const registerRescheduleManagedBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const link = await linkFor(c.env, c.var.db, c.req.valid("param").token, clientAddress(c.req.raw));
    return c.json(await rescheduleByLink(c.env, c.var.db, link, c.req.valid("json")), 200);
  });
