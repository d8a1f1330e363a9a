import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { jsonResponse, problemResponses } from "../../lib/openapi";
import { syncCalendar } from "../../providers/connected-calendars";
import { ConnectedCalendarSchema } from "../../schemas/connected-calendars";
import { needs } from "../../types/scopes";
import { calendarParams } from "./connected-calendar-params";

const route = createRoute({
  method: "post",
  path: "/{id}/calendars/{calendarId}/sync",
  operationId: "syncProviderCalendar",
  tags: ["Providers"],
  summary: "Read one of a provider's own calendars now",
  description:
    "Reads the calendar at once (a read already running is joined, not repeated) and answers it after the read: `ok`, or `failing` with `lastError` (its last busy times still count). An unchanged calendar costs its server one small request. No body.",
  security: needs("catalog:write"),
  request: { params: calendarParams },
  responses: {
    200: jsonResponse("The calendar after the read.", ConnectedCalendarSchema),
    ...problemResponses(404, 422),
  },
});

export const registerSyncProviderCalendar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id, calendarId } = c.req.valid("param");
    return c.json(await syncCalendar(c.env, c.var.db, c.var.caller.businessId, id, calendarId), 200);
  });
