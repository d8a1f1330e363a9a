import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { getServiceAvailability } from "./availability";
import { createService } from "./create";
import { getService } from "./get";
import { listServices } from "./list";
import { updateService } from "./update";

/** `/services`: the business's catalog. */
export const servicesApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listServices(servicesApp);
createService(servicesApp);
getService(servicesApp);
updateService(servicesApp);
getServiceAvailability(servicesApp);
