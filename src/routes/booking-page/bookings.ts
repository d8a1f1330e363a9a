import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { bookPageHold } from "../../booking-page/bookings";
import { pageFor } from "../../booking-page/business";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { bodyProblems, publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { ManagedBookingSchema } from "../../schemas/manage-links";
import { CreatePublicBookingSchema, slugParam } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/{slug}/bookings",
  operationId: "createPublicBooking",
  tags: ["Public booking"],
  summary: "Book a held time",
  description:
    "No API key; CORS open to any origin. Turns the page's hold into the booking, as `POST /bookings` with `holdId` does (the customer is found by e-mail or made; `booking.created` goes out). A `holdToken` that is not the hold's is a 422 at `holdToken` and changes nothing; an expired, released or already booked hold is a 409 `hold_expired` (a token books once); answers that do not fit the service's questions a 422 at `answers.<key>`. Answers the booking as its manage link shows it (`GET /manage/{token}`), with `manageUrl`. Limits as `GET …/services`.",
  security: [],
  request: {
    params: slugParam,
    body: { required: true, content: { "application/json": { schema: CreatePublicBookingSchema } } },
  },
  responses: {
    201: publicJsonResponse("The booking, as its manage link shows it.", ManagedBookingSchema),
    ...publicProblemResponses(404, 409, 429, 503, ...bodyProblems),
  },
});

/** `POST /public/{slug}/bookings`. */
export const registerCreatePublicBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const page = await pageFor(c.env, c.var.db, c.req.valid("param").slug, clientAddress(c.req.raw));
    return c.json(await bookPageHold(c.env, c.var.db, page, c.req.valid("json")), 201);
  });
