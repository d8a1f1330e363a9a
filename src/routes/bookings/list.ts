import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bearerSecurity, problemResponses } from "../../lib/openapi";
import { bookingListQuery, bookingPage } from "./query";
import { BookingListSchema } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listBookings",
  tags: ["Bookings"],
  summary: "List bookings",
  description:
    "Newest appointment first (`startTime` descending, then `id` descending). Pages reach back at most 10,000 bookings (see `page`); use `from`/`to` to read older ones.",
  security: bearerSecurity,
  request: { query: z.strictObject(bookingListQuery) },
  responses: {
    200: { description: "A page of bookings.", content: { "application/json": { schema: BookingListSchema } } },
    ...problemResponses(422),
  },
});

export const listBookings = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => c.json(await bookingPage(c, c.req.valid("query")), 200));
