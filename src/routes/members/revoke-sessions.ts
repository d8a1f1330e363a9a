import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { endSessionsOf } from "../../access/member-sessions";
import { loadMember } from "../../access/members";
import type { AppEnv } from "../../env";
import { emptyResponse, idParam, problemResponses } from "../../lib/openapi";
import { needs } from "../../types/scopes";
import { memberIdExample } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/{id}/sessions/revoke",
  operationId: "revokeMemberSessions",
  tags: ["Members"],
  summary: "Sign a member out everywhere",
  description:
    "Ends every session of the member at once: their next request, in any browser, is signed out. The member stays as they are and may sign in again. Doing it again changes nothing.",
  security: needs("members:write"),
  request: { params: idParam(memberIdExample) },
  responses: { 204: emptyResponse("Every session ended."), ...problemResponses(404, 422) },
});

export const registerRevokeMemberSessions = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const member = await loadMember(c.env, c.var.caller.businessId, c.req.valid("param").id);
    await endSessionsOf(c.env, member.id);
    return c.body(null, 204);
  });
