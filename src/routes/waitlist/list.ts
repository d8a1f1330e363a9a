import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { cursorQuery, cursorRules, paginateByCursor } from "../../lists/cursor";
import { paginationQuery } from "../../lists/pagination";
import { WaitlistListSchema, waitlistListQuery } from "../../schemas/waitlist";
import { needs } from "../../types/scopes";
import { listWaitlist } from "../../waitlist/records";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listWaitlist",
  tags: ["Waitlist"],
  summary: "List a service's waitlist",
  description: [
    "The service's entries in the order they were queued, optionally of one `status` as it reads now (an entry still WAITING when its slot begins is EXPIRED), read from the service's calendar, which keeps every entry until 30 days after its slot ended. `serviceId` is required (a waitlist is the service's).",
    "Pages: `page` from 1, `limit` 1 to 100 (default 50); a page past the end is an empty `data` with the real `total`. A page may skip at most 10,000 entries (`(page − 1) × limit` ≤ 10,000; deeper is a 422 on `page`).",
    cursorRules,
  ].join("\n\n"),
  security: needs("bookings:read"),
  request: {
    query: z.strictObject({
      ...waitlistListQuery,
      page: paginationQuery.page,
      limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ example: 50 }),
      ...cursorQuery(["wtl_01jd3k5v7q8r9s0t1u2v3w4x5y"]),
    }),
  },
  responses: {
    200: pageResponse("A page of the entries.", WaitlistListSchema),
    ...problemResponses(422),
  },
});

export const registerListWaitlist = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const list = await listWaitlist(c.env, c.var.db, c.var.caller.businessId, query);
    return c.json(paginateByCursor(c, list, query), 200);
  });
