import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCreateMember } from "./create";
import { registerDeleteMember } from "./delete";
import { registerGetMember } from "./get";
import { registerListMembers } from "./list";
import { registerRevokeMemberSessions } from "./revoke-sessions";
import { registerUpdateMember } from "./update";

/** `/members`: the people who sign in for the business (docs/members.md). */
export const membersApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListMembers(membersApp);
registerCreateMember(membersApp);
registerGetMember(membersApp);
registerUpdateMember(membersApp);
registerDeleteMember(membersApp);
registerRevokeMemberSessions(membersApp);
