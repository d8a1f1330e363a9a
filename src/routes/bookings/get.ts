import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bearerSecurity, idParam, problemResponses } from "../../lib/openapi";
import { loadBooking } from "./load";
import { BookingSchema, toBooking } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getBooking",
  tags: ["Bookings"],
  summary: "Get a booking",
  security: bearerSecurity,
  request: { params: idParam("bkg_01jd3k5v7q8r9s0t1u2v3w4x5y") },
  responses: {
    200: { description: "The booking.", content: { "application/json": { schema: BookingSchema } } },
    ...problemResponses(404, 422),
  },
});

export const getBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadBooking(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json(toBooking(row), 200);
  });
