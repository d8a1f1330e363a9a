import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { waitlistOf } from "../../calendar";
import type { AppEnv } from "../../env";
import { bearerSecurity, emptyResponse, idParam, problemResponses } from "../../lib/openapi";
import { entryOf } from "../../waitlist/records";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "leaveWaitlist",
  tags: ["Waitlist"],
  summary: "Take an entry off the waitlist",
  description:
    "The entry becomes CANCELLED and stays readable; an offered hold is released and its seat offered to the next entry. Idempotent: an entry already BOOKED, EXPIRED or CANCELLED stays as it is (204).",
  security: bearerSecurity,
  request: { params: idParam("wtl_01jd3k5v7q8r9s0t1u2v3w4x5y") },
  responses: {
    204: emptyResponse("Taken off (or already off)."),
    ...problemResponses(404, 422),
  },
});

export const leaveWaitlist = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { businessId } = c.var.caller;
    const id = c.req.valid("param").id;
    const { serviceId } = await entryOf(c.env, c.var.db, businessId, id);
    await waitlistOf(c.env, businessId, serviceId).leave(id);
    return c.body(null, 204);
  });
