import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { pageFor } from "../../booking-page/business";
import { MAX_LIVE_HOLDS_PER_ADDRESS, PAGE_HOLD_MINUTES, placePageHold } from "../../booking-page/holds";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { bodyProblems, publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { CreatePublicHoldSchema, PublicHoldSchema, slugParam } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/{slug}/holds",
  operationId: "createPublicHold",
  tags: ["Public booking"],
  summary: "Keep a time while the customer fills in their details",
  description: `No API key; CORS open to any origin. Keeps the seat for ${PAGE_HOLD_MINUTES} minutes under every rule of a booking, as \`POST /holds\` does, and answers the \`holdToken\` that alone books it (\`POST …/bookings\`). A service the page does not offer is a 422 \`service_not_found\`; a taken time a 409 \`slot_unavailable\` with its \`reason\`. At most ${MAX_LIVE_HOLDS_PER_ADDRESS} live holds per client address (an IPv6 address's /64) and service (409 \`hold_limit_reached\` beyond, decided in the statement that adds the hold), and page holds together keep at most half of a day's free times of the service (409 \`hold_limit_reached\` with \`reason: "day_share"\`, decided in the service's calendar as the hold is placed). Limits as \`GET …/services\`.`,
  security: [],
  request: {
    params: slugParam,
    body: { required: true, content: { "application/json": { schema: CreatePublicHoldSchema } } },
  },
  responses: {
    201: publicJsonResponse("The hold and its token.", PublicHoldSchema),
    ...publicProblemResponses(404, 409, 429, 503, ...bodyProblems),
  },
});

/** `POST /public/{slug}/holds`. */
export const registerCreatePublicHold = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const address = clientAddress(c.req.raw);
    const page = await pageFor(c.env, c.var.db, c.req.valid("param").slug, address);
    const { id, expiresAt, holdToken } = await placePageHold(c.env, c.var.db, page, address, c.req.valid("json"));
    return c.json({ id, expiresAt, holdToken }, 201);
  });
