import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bookingEventSource } from "../../feeds/records";
import { respondCalendar } from "../../feeds/render";
import { ApiError } from "../../lib/api-error";
import { emptyResponse, idParam, ifNoneMatchHeader, problemResponses } from "../../lib/openapi";
import { fieldErrors } from "../../lib/validation";
import { calendarResponse } from "../../schemas/connected-calendars";
import { needs } from "../../types/scopes";

const params = idParam("bkg_01jd3k5v7q8r9s0t1u2v3w4x5y");

const route = createRoute({
  method: "get",
  path: "/{id}.ics",
  operationId: "getBookingCalendar",
  tags: ["Bookings"],
  summary: "A booking as an iCalendar file",
  description:
    "One VEVENT (RFC 5545): UID the booking id, SUMMARY the service and the customer's first name only, DTSTART/DTEND in UTC; STATUS TENTATIVE while PENDING, CANCELLED once cancelled (a calendar app then removes it), else CONFIRMED. With `If-None-Match` naming the current ETag, a 304 without a body.",
  security: needs("bookings:read"),
  request: { params, headers: ifNoneMatchHeader },
  responses: {
    200: calendarResponse("The booking as an iCalendar file.", true),
    304: emptyResponse("Not modified: the ETag in If-None-Match is current.", ["ETag"]),
    ...problemResponses(404, 422),
  },
});

/**
 * The document's entry of `GET /bookings/{id}.ics`, listed after `GET /bookings/{id}`: routers
 * that rank two templated paths alike take the later one (Prism does), and this one is the
 * narrower.
 */
export const documentBookingCalendar = (app: OpenAPIHono<AppEnv>) => app.openAPIRegistry.registerPath(route);

/**
 * `GET /bookings/{id}.ics`. Routed by hand, before `GET /bookings/{id}` (the id and its `.ics`
 * are one path segment, which the typed router cannot split).
 */
export const registerGetBookingCalendar = (app: OpenAPIHono<AppEnv>) =>
  app.get("/:id{.+\\.ics}", async (c) => {
    // The typed routes' check of `{id}`, and its 422, for the id before `.ics`.
    const parsed = params.safeParse({ id: c.req.param("id").slice(0, -".ics".length) });
    if (!parsed.success)
      throw new ApiError("validation_failed", "The path is invalid.", { errors: fieldErrors(parsed.error) });
    const booking = await bookingEventSource(c.var.db, c.var.caller.businessId, parsed.data.id);
    return respondCalendar(c, booking.serviceName, [booking]);
  });
