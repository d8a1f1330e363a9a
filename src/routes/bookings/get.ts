import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { etagOf, notModified } from "../../lib/etag";
import {
  bearerSecurity,
  etagHeader,
  idParam,
  ifNoneMatchHeader,
  notModifiedResponse,
  problemResponses,
} from "../../lib/openapi";
import { loadBooking } from "./load";
import { BookingSchema, toBooking } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getBooking",
  tags: ["Bookings"],
  summary: "Get a booking",
  security: bearerSecurity,
  request: { params: idParam("bkg_01jd3k5v7q8r9s0t1u2v3w4x5y"), headers: ifNoneMatchHeader },
  responses: {
    200: {
      description: "The booking.",
      headers: etagHeader,
      content: { "application/json": { schema: BookingSchema } },
    },
    ...notModifiedResponse,
    ...problemResponses(404, 422),
  },
});

export const getBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadBooking(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    const etag = etagOf(row.version);
    c.header("ETag", etag);
    if (notModified(c, etag)) return c.body(null, 304);
    return c.json(toBooking(row), 200);
  });
