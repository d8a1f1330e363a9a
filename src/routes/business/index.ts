import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerGetBusiness } from "./get";
import { registerUpdateBusiness } from "./update";

/** `/business`: the business account the key belongs to, and its settings. */
export const businessApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerGetBusiness(businessApp);
registerUpdateBusiness(businessApp);
