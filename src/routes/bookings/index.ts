import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { documentBookingCalendar, getBookingCalendar } from "./calendar";
import { cancelBooking } from "./cancel";
import { createBooking } from "./create";
import { getBooking } from "./get";
import { listBookings } from "./list";
import { listBookingMessages } from "./messages";
import { rescheduleBooking } from "./reschedule";
import { updateBooking } from "./update";

/** `/bookings`: appointments; writes go through the service's calendar. */
export const bookingsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listBookings(bookingsApp);
createBooking(bookingsApp);
// Before getBooking: `/bookings/{id}.ics` would match `/bookings/{id}` too.
getBookingCalendar(bookingsApp);
getBooking(bookingsApp);
documentBookingCalendar(bookingsApp);
updateBooking(bookingsApp);
cancelBooking(bookingsApp);
rescheduleBooking(bookingsApp);
listBookingMessages(bookingsApp);
