import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { loadMember, toMember } from "../../access/members";
import type { AppEnv } from "../../env";
import { etagOf, respondConditionally } from "../../lib/etag";
import { needs } from "../../types/scopes";
import { conditionalGet } from "../operations";
import { MemberSchema, memberIdExample } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getMember",
  tags: ["Members"],
  summary: "Get a member",
  security: needs("members:write"),
  ...conditionalGet(MemberSchema, "The member.", memberIdExample),
});

export const registerGetMember = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await loadMember(c.env, c.var.caller.businessId, c.req.valid("param").id);
    return respondConditionally(c, etagOf(row.version), () => toMember(row));
  });
