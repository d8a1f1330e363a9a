import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCancelAppointment } from "./cancel";
import { registerCreateAppointment } from "./create";
import { registerGetAppointment } from "./get";

/** `/appointments`: visits of several services back to back, booked all or none. */
export const appointmentsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerCreateAppointment(appointmentsApp);
registerGetAppointment(appointmentsApp);
registerCancelAppointment(appointmentsApp);
