import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { pageFor } from "../../booking-page/business";
import { onlineServices } from "../../booking-page/services";
import type { AppEnv } from "../../env";
import { clientAddress } from "../../lib/booking-page-throttle";
import { publicJsonResponse, publicProblemResponses } from "../../lib/openapi";
import { PublicServicesSchema, slugParam } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{slug}/services",
  operationId: "listPublicServices",
  tags: ["Public booking"],
  summary: "The services a booking page offers",
  description:
    "No API key; CORS open to any origin. The business's active services marked `bookableOnline` (at most 100, by name), each with the people who perform it by name, its questions and its policy windows, and what the page shows of the business. Nothing else of the business is readable here: no customers, no bookings, no e-mail addresses. An unknown slug, a disabled page, or a deployment without manage links (`MANAGE_LINK_SECRET`, `PUBLIC_URL`) is a 404. Requests are limited per client address and per business (429 with `Retry-After`).",
  security: [],
  request: { params: slugParam },
  responses: {
    200: publicJsonResponse("The page's business and services.", PublicServicesSchema),
    ...publicProblemResponses(404, 429),
  },
});

/** `GET /public/{slug}/services`. */
export const registerListPublicServices = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const page = await pageFor(c.env, c.var.db, c.req.valid("param").slug, clientAddress(c.req.raw));
    const { name, title, locale, timezone, accentColor } = page;
    const services = await onlineServices(c.var.db, page.id);
    return c.json({ business: { name, title, locale, timezone, accentColor }, services }, 200);
  });
