import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { removeMember } from "../../access/member-changes";
import type { AppEnv } from "../../env";
import { problemResponses } from "../../lib/openapi";
import { needs } from "../../types/scopes";
import { deleteById } from "../operations";
import { memberIdExample } from "./schemas";

const byId = deleteById(memberIdExample, "Removed; their sessions ended.");

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteMember",
  tags: ["Members"],
  summary: "Remove a member",
  description: "The member's sessions end at once. Removing the business's last active owner is a 409 `last_owner`.",
  security: needs("members:write"),
  request: byId.request,
  responses: { ...byId.responses, ...problemResponses(409) },
});

export const registerDeleteMember = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    await removeMember(c.env, c.var.db, c.var.caller.businessId, c.req.valid("param").id, actorOf(c.var.caller));
    return c.body(null, 204);
  });
