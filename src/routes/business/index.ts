import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { getBusiness } from "./get";
import { updateBusiness } from "./update";

/** `/business`: the business account the key belongs to, and its settings. */
export const businessApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
getBusiness(businessApp);
updateBusiness(businessApp);
