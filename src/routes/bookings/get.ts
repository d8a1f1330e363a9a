import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { loadWithConflicts } from "../../bookings/conflicts";
import type { AppEnv } from "../../env";
import { bookingEtag, respondConditionally } from "../../lib/etag";
import { withManageUrl } from "../../manage-links/present";
import { BookingSchema } from "../../schemas/bookings";
import { needs } from "../../types/scopes";
import { conditionalGet } from "../operations";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getBooking",
  tags: ["Bookings"],
  summary: "Get a booking",
  security: needs("bookings:read"),
  ...conditionalGet(BookingSchema, "The booking.", "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y"),
});

export const registerGetBooking = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { row, booking: found } = await loadWithConflicts(c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    const booking = await withManageUrl(c.env, c.var.caller, found);
    return respondConditionally(c, bookingEtag(row.version, booking.conflicts), () => booking);
  });
