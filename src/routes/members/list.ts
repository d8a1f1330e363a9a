import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { memberPage } from "../../access/members";
import type { AppEnv } from "../../env";
import { pageResponse, problemResponses } from "../../lib/openapi";
import { z } from "../../lib/zod";
import { listRules, paginate, paginationQuery } from "../../lists/pagination";
import { needs } from "../../types/scopes";
import { MemberListSchema, membersScopeNote } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listMembers",
  tags: ["Members"],
  summary: "List members",
  description: `The people who sign in for the business, newest first. ${membersScopeNote}\n\n${listRules}`,
  security: needs("members:write"),
  request: { query: z.strictObject(paginationQuery) },
  responses: { 200: pageResponse("A page of members.", MemberListSchema), ...problemResponses(422) },
});

export const registerListMembers = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { items, total } = await memberPage(c.env, c.var.caller.businessId, query);
    return c.json(paginate(c, items, total, query), 200);
  });
