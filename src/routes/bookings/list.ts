import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { bookingPage } from "../../bookings/list";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { cursorRules, paginateByCursor } from "../../lists/cursor";
import { listRules } from "../../lists/pagination";
import { withManageUrls } from "../../manage-links/present";
import { batchReader } from "../../middleware/key-check";
import { BookingListSchema, bookingListQuery } from "../../schemas/bookings";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listBookings",
  tags: ["Bookings"],
  summary: "List bookings",
  description: [
    "Newest appointment first (`startTime` descending, then `id` descending). Filters combine with AND.",
    "Rules the schema cannot express: with both `from` and `to`, `from` must be before `to` (else 422 `validation_failed` on `to`).",
    listRules,
    cursorRules,
  ].join("\n\n"),
  security: needs("bookings:read"),
  request: {
    query: z.strictObject({
      ...bookingListQuery,
      providerId: z.string().min(1).max(64).optional().openapi({
        description: "Only bookings that claimed this provider: the one who performs it, or one of a team.",
      }),
      resourceId: z.string().min(1).max(64).optional().openapi({
        description: "Only bookings that took a unit of this resource.",
      }),
    }),
  },
  responses: {
    200: pageResponse("A page of bookings.", BookingListSchema),
    ...problemResponses(422),
  },
});

export const registerListBookings = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const list = await bookingPage(c.var.db, batchReader(c), c.var.caller.businessId, query);
    const items = await withManageUrls(c.env, c.var.caller, list.items);
    return c.json(paginateByCursor(c, { ...list, items }, query), 200);
  });
