import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { emptyResponse, problemResponses } from "../../lib/openapi";
import { disconnectCalendar } from "../../providers/connected-calendars";
import { needs } from "../../types/scopes";
import { calendarParams } from "./connected-calendar-params";

const route = createRoute({
  method: "delete",
  path: "/{id}/calendars/{calendarId}",
  operationId: "deleteProviderCalendar",
  tags: ["Providers"],
  summary: "Disconnect one of a provider's own calendars",
  description:
    "Its busy times stop counting at once and it is no longer read or written; events already written into it stay there.",
  security: needs("catalog:write"),
  request: { params: calendarParams },
  responses: {
    204: emptyResponse("The calendar is disconnected."),
    ...problemResponses(404, 422),
  },
});

export const registerDeleteProviderCalendar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id, calendarId } = c.req.valid("param");
    await disconnectCalendar(c.env, c.var.db, c.var.caller.businessId, id, calendarId, actorOf(c.var.caller));
    return c.body(null, 204);
  });
