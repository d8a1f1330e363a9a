import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { listResourceBookings } from "./bookings";
import { createResource } from "./create";
import { getResource } from "./get";
import { listResources } from "./list";
import { updateResource } from "./update";

/** `/resources`: the rooms, chairs and machines services need, and their bookings. */
export const resourcesApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listResources(resourcesApp);
createResource(resourcesApp);
getResource(resourcesApp);
updateResource(resourcesApp);
listResourceBookings(resourcesApp);
