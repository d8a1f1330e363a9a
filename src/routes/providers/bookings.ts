import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bearerSecurity, idParam, pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { loadProvider } from "../../providers/records";
import { BookingListSchema, bookingListQuery } from "../../schemas/bookings";
import { bookingPage } from "../bookings/query";

const route = createRoute({
  method: "get",
  path: "/{id}/bookings",
  operationId: "listProviderBookings",
  tags: ["Providers"],
  summary: "List a provider's bookings across services",
  description:
    "The same filters, order (`startTime` descending, then `id` descending) and envelope as `GET /bookings`.",
  security: bearerSecurity,
  request: { params: idParam("prv_01jd3k5v7q8r9s0t1u2v3w4x5y"), query: z.strictObject(bookingListQuery) },
  responses: {
    200: pageResponse("A page of bookings.", BookingListSchema),
    ...problemResponses(404, 422),
  },
});

export const listProviderBookings = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    await loadProvider(c.var.db, c.var.caller.businessId, id);
    return c.json(await bookingPage(c, { ...c.req.valid("query"), providerId: id }), 200);
  });
