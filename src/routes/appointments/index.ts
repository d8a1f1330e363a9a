import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { cancelAppointment } from "./cancel";
import { createAppointment } from "./create";
import { getAppointment } from "./get";

/** `/appointments`: visits of several services back to back, booked all or none. */
export const appointmentsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
createAppointment(appointmentsApp);
getAppointment(appointmentsApp);
cancelAppointment(appointmentsApp);
