import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { linkAvailability } from "../../bookings/by-link";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { utcDateTime, utcDateTimeRule } from "../../lib/datetime";
import { publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { linkFor } from "../../manage-links/records";
import { ManagedAvailabilitySchema, manageTokenParam } from "../../schemas/manage-links";
import { MAX_RANGE_DAYS } from "../../services/availability";

const route = createRoute({
  method: "get",
  path: "/{token}/availability",
  operationId: "getManagedAvailability",
  tags: ["Manage links"],
  summary: "Times the booking could move to",
  description: `No API key. The slots of the booking's service in [from, to) (its own provider's, when it has one; once that provider no longer performs the service, those of any of its current providers, or the service's own when it has none, as a move by this link would go to any of them), each with its times and whether it is bookable; no counts and no other customer's data. \`from\` defaults to now and \`to\` to from + 7 days, cut at 9999-12-31T23:59:59.999Z as for the service's calendar; at most ${MAX_RANGE_DAYS} days (else 422 on \`to\`). The booking's own seat counts as taken. Tokens and limits as \`GET /manage/{token}\`.`,
  security: [],
  request: {
    params: manageTokenParam,
    query: z.strictObject({
      from: utcDateTime.optional().openapi({ description: `Start of the range (inclusive). ${utcDateTimeRule}` }),
      to: utcDateTime.optional().openapi({ description: `End of the range (exclusive). ${utcDateTimeRule}` }),
    }),
  },
  responses: {
    200: publicJsonResponse("The slots.", ManagedAvailabilitySchema),
    ...publicProblemResponses(404, 422, 429),
  },
});

/** `GET /manage/{token}/availability`. */
export const registerGetManagedAvailability = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const link = await linkFor(c.env, c.var.db, c.req.valid("param").token, clientAddress(c.req.raw));
    return c.json(await linkAvailability(c.env, c.var.db, link, c.req.valid("query")), 200);
  });
