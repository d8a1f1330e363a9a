import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCancelBooking } from "./cancel";
import { registerCreateBooking } from "./create";
import { registerGetBooking } from "./get";
import { documentBookingCalendar, registerGetBookingCalendar } from "./invite";
import { registerListBookings } from "./list";
import { registerListBookingMessages } from "./messages";
import { registerRescheduleBooking } from "./reschedule";
import { registerUpdateBooking } from "./update";

/** `/bookings`: bookings of one service each; writes go through the service's calendar. */
export const bookingsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListBookings(bookingsApp);
registerCreateBooking(bookingsApp);
// Before getBooking: `/bookings/{id}.ics` would match `/bookings/{id}` too.
registerGetBookingCalendar(bookingsApp);
registerGetBooking(bookingsApp);
documentBookingCalendar(bookingsApp);
registerUpdateBooking(bookingsApp);
registerCancelBooking(bookingsApp);
registerRescheduleBooking(bookingsApp);
registerListBookingMessages(bookingsApp);
