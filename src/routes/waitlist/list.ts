import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bearerSecurity, jsonResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { WaitlistListSchema, waitlistListQuery } from "../../schemas/waitlist";
import { listOfService } from "../../waitlist/records";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listWaitlist",
  tags: ["Waitlist"],
  summary: "List a service's waitlist",
  description:
    "The service's entries in the order they were queued, optionally of one `status`: at most `limit` (default 50, at most 100), read from the service's calendar, which keeps every entry. `serviceId` is required (a waitlist is the service's).",
  security: bearerSecurity,
  request: {
    query: z.object({
      ...waitlistListQuery,
      limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ example: 50 }),
    }),
  },
  responses: {
    200: jsonResponse("The entries.", WaitlistListSchema),
    ...problemResponses(422),
  },
});

export const listWaitlist = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { serviceId, status, limit } = c.req.valid("query");
    return c.json(
      { data: await listOfService(c.env, c.var.db, c.var.caller.businessId, serviceId, status, limit) },
      200,
    );
  });
