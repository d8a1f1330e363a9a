import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerListAuditEvents } from "./list";

/** `/audit-events`: the record of every change to the business. */
export const auditEventsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListAuditEvents(auditEventsApp);
