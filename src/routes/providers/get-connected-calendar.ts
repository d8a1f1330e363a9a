import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { jsonResponse, problemResponses } from "../../lib/openapi";
import { getCalendar } from "../../providers/connected-calendars";
import { ConnectedCalendarSchema } from "../../schemas/connected-calendars";
import { needs } from "../../types/scopes";
import { calendarParams } from "./connected-calendar-params";

const route = createRoute({
  method: "get",
  path: "/{id}/calendars/{calendarId}",
  operationId: "getProviderCalendar",
  tags: ["Providers"],
  summary: "Get one of a provider's own calendars",
  description: "The calendar and its sync state: `failing` with `lastError` and `failingSince` while its server fails.",
  security: needs("catalog:read"),
  request: { params: calendarParams },
  responses: {
    200: jsonResponse("The calendar.", ConnectedCalendarSchema),
    ...problemResponses(404, 422),
  },
});

export const registerGetProviderCalendar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id, calendarId } = c.req.valid("param");
    return c.json(await getCalendar(c.env, c.var.db, c.var.caller.businessId, id, calendarId), 200);
  });
