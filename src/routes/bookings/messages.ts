import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { idParam, pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listOf, listRules, paginate, paginationQuery } from "../../lists/pagination";
import { messagePage } from "../../messages/records";
import { MessageSchema } from "../../schemas/messages";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/{id}/messages",
  operationId: "listBookingMessages",
  tags: ["Bookings"],
  summary: "E-mails sent to the booking's customer",
  description: `What the customer was e-mailed about the booking (and its visit's or series' confirmation), oldest first, while the business has \`emails.enabled\`; an erased customer's address reads empty.\n\n${listRules}`,
  security: needs("bookings:read"),
  request: { params: idParam("bkg_01jd3k5v7q8r9s0t1u2v3w4x5y"), query: z.strictObject(paginationQuery) },
  responses: {
    200: pageResponse("A page of messages.", listOf(MessageSchema, "MessageList")),
    ...problemResponses(404, 422),
  },
});

export const registerListBookingMessages = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { items, total } = await messagePage(c.var.db, c.var.caller.businessId, c.req.valid("param").id, query);
    return c.json(paginate(c, items, total, query), 200);
  });
