import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { feedAddress, issueFeed } from "../../feeds/records";
import { idParam, jsonResponse, problemResponses } from "../../lib/openapi";
import { CalendarFeedSchema } from "../../schemas/connected-calendars";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/{id}/feed",
  operationId: "createProviderFeed",
  tags: ["Providers"],
  summary: "Issue (or rotate) a provider's calendar feed",
  description:
    "Answers the secret address of an iCalendar feed of the person's bookings (`GET /feeds/{token}.ics`), for their phone's or desktop's calendar app to subscribe to. Calling it again issues a new address and the old one stops working at once (404). The address is shown only in this answer: it is stored as a hash.",
  security: needs("catalog:write"),
  request: { params: idParam("prv_01jd3k5v7q8r9s0t1u2v3w4x5y") },
  responses: {
    201: jsonResponse("The feed's new address.", CalendarFeedSchema),
    ...problemResponses(404, 422),
  },
});

export const registerCreateProviderFeed = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const token = await issueFeed(c.var.db, c.var.caller.businessId, id, actorOf(c.var.caller));
    const url = feedAddress(token, c.req.url);
    return c.json({ providerId: id, url }, 201);
  });
