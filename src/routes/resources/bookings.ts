import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { bookingPage } from "../../bookings/list";
import type { AppEnv } from "../../env";
import { idParam, pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { paginateByCursor } from "../../lists/cursor";
import { withManageUrls } from "../../manage-links/present";
import { batchReader } from "../../middleware/key-check";
import { BookingListSchema, bookingListQuery } from "../../schemas/bookings";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/{id}/bookings",
  operationId: "listResourceBookings",
  tags: ["Resources"],
  summary: "List a resource's bookings across services",
  description:
    "The bookings that took a unit of the resource, with the same filters, order (`startTime` descending, then `id` descending) and envelope as `GET /bookings`.",
  security: needs("bookings:read"),
  request: { params: idParam("res_01jd3k5v7q8r9s0t1u2v3w4x5y"), query: z.strictObject(bookingListQuery) },
  responses: {
    200: pageResponse("A page of bookings.", BookingListSchema),
    ...problemResponses(404, 422),
  },
});

export const registerListResourceBookings = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const resourceId = c.req.valid("param").id;
    const list = await bookingPage(
      c.var.db,
      batchReader(c),
      c.var.caller.businessId,
      { ...query, resourceId },
      "resourceId",
    );
    const items = await withManageUrls(c.env, c.var.caller, list.items);
    return c.json(paginateByCursor(c, { ...list, items }, query), 200);
  });
