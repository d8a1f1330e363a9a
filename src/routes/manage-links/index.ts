import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerRotateManageLinks } from "./rotate";

/** `/manage-links`: the business's side of its customers' manage links. */
export const manageLinksApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerRotateManageLinks(manageLinksApp);
