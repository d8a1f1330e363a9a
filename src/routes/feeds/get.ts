import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { FEED_DAYS_AHEAD, FEED_DAYS_BEFORE, MAX_FEED_EVENTS, openFeed } from "../../feeds/records";
import { respondCalendar } from "../../feeds/render";
import { ApiError } from "../../lib/api-error";
import { chargePublicRequest } from "../../lib/booking-page-throttle";
import { ifNoneMatchHeader, publicProblemResponses, responseHeaders } from "../../lib/openapi";
import { calendarResponse, feedTokenParam } from "../../schemas/connected-calendars";

const route = createRoute({
  method: "get",
  path: "/{token}.ics",
  operationId: "getCalendarFeed",
  tags: ["Providers"],
  summary: "A person's calendar feed (iCalendar)",
  description: `No API key: the address is the secret (\`POST /providers/{id}/feed\` issues it). One VEVENT per booking of the person that is not cancelled, from ${FEED_DAYS_BEFORE} days ago to ${FEED_DAYS_AHEAD} days ahead (at most ${MAX_FEED_EVENTS}, earliest first): UID the booking id, SUMMARY the service and the customer's first name only, DTSTART/DTEND in UTC, PENDING as TENTATIVE. With \`If-None-Match\` naming the current ETag, a 304 without a body. A token that is wrong, altered, rotated or deleted is a 404 that says nothing more; requests are limited per address and per token (429 with \`Retry-After\`).`,
  security: [],
  request: { params: feedTokenParam, headers: ifNoneMatchHeader },
  responses: {
    200: calendarResponse("The person's bookings as an iCalendar file.", false),
    304: { description: "Not modified: the ETag in If-None-Match is current.", headers: responseHeaders(["ETag"]) },
    ...publicProblemResponses(404, 429),
  },
});

/**
 * `GET /feeds/{token}.ics`. Routed by hand (the token and its `.ics` are one path segment, which
 * the typed router cannot split); the document's entry is the route above.
 */
export const registerGetCalendarFeed = (app: OpenAPIHono<AppEnv>) => {
  app.openAPIRegistry.registerPath(route);
  return app.get("/:token{.+\\.ics}", async (c) => {
    const token = c.req.param("token").slice(0, -".ics".length);
    await chargePublicRequest(c.env.FEED_LIMITER, "feed", c.req.header("CF-Connecting-IP") ?? "unknown", token);
    const feed = await openFeed(c.var.db, token);
    if (!feed) throw new ApiError("not_found", "There is no calendar feed at this address.");
    return respondCalendar(c, feed.name, feed.events);
  });
};
