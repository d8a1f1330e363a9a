import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { managedView } from "../../bookings/by-link";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { linkFor } from "../../manage-links/records";
import { ManagedBookingSchema, manageTokenParam } from "../../schemas/manage-links";

const route = createRoute({
  method: "get",
  path: "/{token}",
  operationId: "getManagedBooking",
  tags: ["Manage links"],
  summary: "A customer's booking, by its manage link",
  description:
    "No API key: the link is the secret (a booking's `manageUrl`). Only this booking, with the service's and people's names instead of ids, and until when the link may still cancel or move it. A wrong, altered or ended token (the booking cancelled, its customer erased, 7 days past its end, or the business's link key rotated) is a 404 that says nothing more; requests are limited per address and per token (429 with `Retry-After`). A request that prefers `text/html` (a browser's) gets the manage page instead: the booking, a month of dates and times to move to, and a cancel form, which post (as forms, from this origin only) to `…/reschedule` and `…/cancel`; there a dead or altered token is an HTML 404. Answers carry `Vary: Accept`.",
  security: [],
  request: { params: manageTokenParam },
  responses: {
    200: {
      ...publicJsonResponse("The booking; the manage page when the request prefers `text/html`.", ManagedBookingSchema),
      content: {
        "application/json": { schema: ManagedBookingSchema },
        "text/html": { schema: z.string().openapi({ description: "The manage page." }) },
      },
    },
    ...publicProblemResponses(404, 429),
  },
});

/** `GET /manage/{token}`. */
export const registerGetManagedBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const link = await linkFor(c.env, c.var.db, c.req.valid("param").token, clientAddress(c.req.raw));
    return c.json(managedView(link), 200);
  });
