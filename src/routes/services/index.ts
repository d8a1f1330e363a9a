import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerGetServiceAvailability } from "./availability";
import { registerCreateService } from "./create";
import { registerGetService } from "./get";
import { registerListServices } from "./list";
import { registerUpdateService } from "./update";

/** `/services`: the business's catalog. */
export const servicesApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListServices(servicesApp);
registerCreateService(servicesApp);
registerGetService(servicesApp);
registerUpdateService(servicesApp);
registerGetServiceAvailability(servicesApp);
