import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { loadBusiness, toBusiness } from "../../business/records";
import { BusinessSchema } from "../../business/schemas";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { emptyResponse, ifNoneMatchHeader, jsonResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "getBusiness",
  tags: ["Business"],
  summary: "Get the business",
  description:
    "The business account the API key belongs to, and its settings: the booking page and e-mails to customers. Sends the `ETag`; with `If-None-Match` naming the current one, the answer is a 304 without a body. It takes no query parameters (any is a 422).",
  security: needs("catalog:read"),
  request: { headers: ifNoneMatchHeader, query: z.strictObject({}) },
  responses: {
    200: jsonResponse("The business.", BusinessSchema, { required: ["ETag"] }),
    304: emptyResponse("Not modified: the ETag in If-None-Match is current.", ["ETag"]),
    ...problemResponses(422),
  },
});

export const registerGetBusiness = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadBusiness(c.var.db, c.var.caller.businessId);
    return respondConditionally(c, etagOf(row.version), () => toBusiness(row));
  });
