import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { manageForm, manageGet } from "../../pages/manage/handlers";
import { registerGetManagedAvailability } from "./availability";
import { registerCancelManagedBooking } from "./cancel";
import { registerGetManagedBooking } from "./get";
import { registerRescheduleManagedBooking } from "./reschedule";
import { registerRotateManageLinks } from "./rotate";

/** `/manage`: a customer's own booking, public, opened by the signed token in its link. */
export const manageApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
// A browser's requests get the manage page (src/pages/manage); everyone else goes on to the JSON.
manageApp.get("/:token", manageGet);
manageApp.post("/:token/cancel", manageForm("cancel"));
manageApp.post("/:token/reschedule", manageForm("reschedule"));
registerGetManagedBooking(manageApp);
registerGetManagedAvailability(manageApp);
registerRescheduleManagedBooking(manageApp);
registerCancelManagedBooking(manageApp);

/** `/manage-links`: the business's side of its customers' manage links. */
export const manageLinksApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerRotateManageLinks(manageLinksApp);
