import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { createMember, MAX_MEMBERS, toMember } from "../../access/members";
import type { AppEnv } from "../../env";
import { etagOf } from "../../lib/etag";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { needs } from "../../types/scopes";
import { CreateMemberSchema, MemberSchema } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createMember",
  tags: ["Members"],
  summary: "Invite a member",
  description: `A new member, \`invited\` until their first sign-in (at \`/office/sign-in\` with this address). A staff member needs \`providerId\`. An address the business has a member with already is a 409 \`member_exists\`; a business has at most ${MAX_MEMBERS} members (409 \`member_limit\`).`,
  security: needs("members:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateMemberSchema } } } },
  responses: {
    201: jsonResponse("The member.", MemberSchema, { required: ["Location", "ETag"] }),
    ...problemResponses(409, ...bodyProblems),
  },
});

export const registerCreateMember = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const row = await createMember(
      c.env,
      c.var.db,
      c.var.caller.businessId,
      c.req.valid("json"),
      actorOf(c.var.caller),
    );
    c.header("Location", `/api/v1/members/${row.id}`);
    c.header("ETag", etagOf(row.version));
    return c.json(toMember(row), 201);
  });
