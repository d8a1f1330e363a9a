import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { updateMember } from "../../access/member-changes";
import type { AppEnv } from "../../env";
import { needs } from "../../types/scopes";
import { answerEdited, editOf } from "../edit-by-id";
import { conditionalPatch } from "../operations";
import { MemberSchema, memberIdExample, UpdateMemberSchema } from "./schemas";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateMember",
  tags: ["Members"],
  summary: "Change a member",
  description:
    "Given fields replace the stored ones. A new role takes effect on the member's next request. Disabling ends their sessions at once. Demoting or disabling the business's last active owner is a 409 `last_owner`, decided in the change's own statement (two owners demoting each other at once leave one).",
  security: needs("members:write"),
  ...conditionalPatch(UpdateMemberSchema, MemberSchema, "The changed member.", memberIdExample, 409),
});

export const registerUpdateMember = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { member, version } = await updateMember(...editOf(c));
    return answerEdited(c, member, version);
  });
