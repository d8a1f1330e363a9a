import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { cancelBooking } from "./cancel";
import { createBooking } from "./create";
import { getBooking } from "./get";
import { listBookings } from "./list";
import { rescheduleBooking } from "./reschedule";
import { updateBooking } from "./update";

/** `/bookings`: appointments; writes go through the service's calendar. */
export const bookingsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listBookings(bookingsApp);
createBooking(bookingsApp);
getBooking(bookingsApp);
updateBooking(bookingsApp);
cancelBooking(bookingsApp);
rescheduleBooking(bookingsApp);
