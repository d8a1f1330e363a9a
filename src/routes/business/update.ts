import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { editBusiness, toBusiness } from "../../business/records";
import { BusinessSchema, UpdateBusinessSchema } from "../../business/schemas";
import type { AppEnv } from "../../env";
import { etagOf, ifMatchTags } from "../../lib/etag";
import { bodyProblems, ifMatchHeader, jsonResponse, problemResponses } from "../../lib/openapi";
import { forgetCallersOf } from "../../middleware/key-check";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "patch",
  path: "/",
  operationId: "updateBusiness",
  tags: ["Business"],
  summary: "Change the business",
  description:
    "Given fields replace the stored ones; `bookingPage`, `emails` and `conflicts` are replaced whole, as sent. A slug another business has is a 409 `slug_taken`.",
  security: needs("business:write"),
  request: {
    headers: ifMatchHeader,
    body: { required: true, content: { "application/json": { schema: UpdateBusinessSchema } } },
  },
  responses: {
    200: jsonResponse("The changed business.", BusinessSchema, { required: ["ETag"] }),
    ...problemResponses(409, 412, ...bodyProblems),
  },
});

export const registerUpdateBusiness = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const changes = c.req.valid("json");
    const edit = { changes, ifMatch: ifMatchTags(c), actor: actorOf(c.var.caller) };
    const row = await editBusiness(c.env, c.var.db, c.var.caller.businessId, edit);
    // Callers carry the business's name: the next request of each of its keys reads it anew.
    forgetCallersOf(c.var.caller.businessId);
    c.header("ETag", etagOf(row.version));
    return c.json(toBusiness(row), 200);
  });
