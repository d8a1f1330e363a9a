import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerListResourceBookings } from "./bookings";
import { registerCreateResource } from "./create";
import { registerGetResource } from "./get";
import { registerListResources } from "./list";
import { registerUpdateResource } from "./update";

/** `/resources`: the rooms, chairs and machines services need, and their bookings. */
export const resourcesApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListResources(resourcesApp);
registerCreateResource(resourcesApp);
registerGetResource(resourcesApp);
registerUpdateResource(resourcesApp);
registerListResourceBookings(resourcesApp);
