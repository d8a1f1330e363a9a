import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { cancelByLink } from "../../bookings/by-link";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { bodyProblems, publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { linkFor } from "../../manage-links/records";
import { emptyBodyAsObject } from "../../middleware/json-body";
import { ManagedBookingSchema, ManagedCancelSchema, manageTokenParam } from "../../schemas/manage-links";

const route = createRoute({
  method: "post",
  path: "/{token}/cancel",
  middleware: [emptyBodyAsObject] as const,
  operationId: "cancelManagedBooking",
  tags: ["Manage links"],
  summary: "Cancel the booking, by its manage link",
  description:
    "No API key. Cancels the booking and frees its time, as `POST /bookings/{id}/cancel` does (the `booking.cancelled` webhook included); the body and its `reason` are optional. Inside the service's `cancellationNoticeMinutes` before the start it is a 409 `policy_window` whose `until` says when cancelling ended. From then on the link is a 404. Tokens and limits as `GET /manage/{token}`. A form post (`application/x-www-form-urlencoded`, sent by the manage page from this origin) is the page's own: it answers HTML.",
  security: [],
  request: {
    params: manageTokenParam,
    body: { required: false, content: { "application/json": { schema: ManagedCancelSchema } } },
  },
  responses: {
    200: publicJsonResponse("The cancelled booking.", ManagedBookingSchema),
    ...publicProblemResponses(404, 409, 429, 503, ...bodyProblems),
  },
});

/** `POST /manage/{token}/cancel`. */
export const registerCancelManagedBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const link = await linkFor(c.env, c.var.db, c.req.valid("param").token, clientAddress(c.req.raw));
    return c.json(await cancelByLink(c.env, link, c.req.valid("json")?.reason), 200);
  });
