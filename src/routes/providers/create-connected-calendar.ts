import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { bodyProblems, idParam, jsonResponse, problemResponses } from "../../lib/openapi";
import { connectCalendar } from "../../providers/connected-calendars";
import { ConnectCalendarSchema, ConnectedCalendarSchema } from "../../schemas/connected-calendars";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/{id}/calendars",
  operationId: "createProviderCalendar",
  tags: ["Providers"],
  summary: "Connect one of a provider's own calendars (CalDAV)",
  description:
    "The person's busy times in this calendar (30 days back to 731 days ahead, recurring events expanded) refuse claims on their time (409 `slot_unavailable`, reason `provider_busy`) and take them out of the slot calendars; with `writeBookings`, their bookings are written into it. The calendar is read before the answer (for up to 20 s): `syncStatus` `ok` means its busy times count already; `failing` means the read failed (`lastError` says why; it is read again with backoff, and counts once a read succeeds); `pending`, that the first read is still running. Then it is read every 5 minutes and on `POST …/sync`. At most 5 calendars per person (a 6th is a 409 `calendar_limit`). The password is encrypted at rest and never shown.",
  security: needs("catalog:write"),
  request: {
    params: idParam("prv_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    body: { required: true, content: { "application/json": { schema: ConnectCalendarSchema } } },
  },
  responses: {
    201: jsonResponse("The calendar after its first read; `Location` points at it.", ConnectedCalendarSchema, {
      required: ["Location"],
    }),
    ...problemResponses(404, 409, ...bodyProblems, 503),
  },
});

export const registerCreateProviderCalendar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const calendar = await connectCalendar(
      c.env,
      c.var.db,
      c.var.caller.businessId,
      id,
      c.req.valid("json"),
      actorOf(c.var.caller),
    );
    c.header("Location", `/api/v1/providers/${id}/calendars/${calendar.id}`);
    return c.json(calendar, 201);
  });
