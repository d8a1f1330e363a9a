import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { onlineAvailability } from "../../booking-page/availability";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { utcDateTime, utcDateTimeRule } from "../../lib/datetime";
import { publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { MAX_RANGE_DAYS, MAX_SLOTS } from "../../services/availability";
import { PublicAvailabilitySchema, slugParam } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{slug}/services/{id}/availability",
  operationId: "getPublicAvailability",
  tags: ["Public booking"],
  summary: "A page's service's times",
  description: `No API key; CORS open to any origin. The slots of the service that start in [from, to), each with its times and whether it is bookable now (seats, working hours, notice and horizon, people's other appointments); no counts and nothing of other customers. \`from\` defaults to now and \`to\` to from + 7 days; at most ${MAX_RANGE_DAYS} days and ${MAX_SLOTS} slots (else 422 on \`to\`). \`providerId\`: one of the service's \`providers\` (else 422). A service the page does not offer (unknown, inactive, not \`bookableOnline\`) is a 404, as is the page. Limits as \`GET …/services\`.`,
  security: [],
  request: {
    params: slugParam.extend({
      id: z
        .string()
        .max(64)
        .openapi({ param: { name: "id", in: "path" }, example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    }),
    query: z.strictObject({
      from: utcDateTime.optional().openapi({ description: `Start of the range (inclusive). ${utcDateTimeRule}` }),
      to: utcDateTime.optional().openapi({ description: `End of the range (exclusive). ${utcDateTimeRule}` }),
      providerId: z.string().min(1).max(64).optional().openapi({ description: "Only this person's seats." }),
    }),
  },
  responses: {
    200: publicJsonResponse("The slots.", PublicAvailabilitySchema),
    ...publicProblemResponses(404, 422, 429),
  },
});

/** `GET /public/{slug}/services/{id}/availability`. */
export const registerGetPublicAvailability = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { slug, id } = c.req.valid("param");
    const page = { slug, address: clientAddress(c.req.raw) };
    return c.json(await onlineAvailability(c.env, c.var.db, page, id, c.req.valid("query")), 200);
  });
