import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { manageForm, manageGet } from "../../pages/manage/handlers";
import { getManagedAvailability } from "./availability";
import { cancelManagedBooking } from "./cancel";
import { getManagedBooking } from "./get";
import { rescheduleManagedBooking } from "./reschedule";

/** `/manage`: a customer's own booking, public, opened by the signed token in its link. */
export const manageApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
// A browser's requests get the manage page (src/pages/manage); everyone else goes on to the JSON.
manageApp.get("/:token", manageGet);
manageApp.post("/:token/cancel", manageForm("cancel"));
manageApp.post("/:token/reschedule", manageForm("reschedule"));
getManagedBooking(manageApp);
getManagedAvailability(manageApp);
rescheduleManagedBooking(manageApp);
cancelManagedBooking(manageApp);
