import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { idParam, jsonResponse, problemResponses } from "../../lib/openapi";
import { listCalendars } from "../../providers/connected-calendars";
import { ConnectedCalendarListSchema } from "../../schemas/connected-calendars";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/{id}/calendars",
  operationId: "listProviderCalendars",
  tags: ["Providers"],
  summary: "List a provider's own calendars",
  description: "Every connected calendar of the person (at most 5, so never paged), oldest first, with its sync state.",
  security: needs("catalog:read"),
  request: { params: idParam("prv_01jd3k5v7q8r9s0t1u2v3w4x5y") },
  responses: {
    200: jsonResponse("The person's calendars.", ConnectedCalendarListSchema),
    ...problemResponses(404, 422),
  },
});

export const registerListProviderCalendars = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const data = await listCalendars(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id);
    return c.json({ data }, 200);
  });
