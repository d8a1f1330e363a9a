import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCancelAppointment } from "./cancel";
import { registerCreateAppointment } from "./create";
import { registerGetAppointment } from "./get";

/** `/appointments`: visits of several services back to back, booked all or none. */
export const visitsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerCreateAppointment(visitsApp);
registerGetAppointment(visitsApp);
registerCancelAppointment(visitsApp);
