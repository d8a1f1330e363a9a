import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { getManagedAvailability } from "./availability";
import { cancelManagedBooking } from "./cancel";
import { getManagedBooking } from "./get";
import { rescheduleManagedBooking } from "./reschedule";

/** `/manage`: a customer's own booking, public, opened by the signed token in its link. */
export const manageApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
getManagedBooking(manageApp);
getManagedAvailability(manageApp);
rescheduleManagedBooking(manageApp);
cancelManagedBooking(manageApp);
