import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { getBooking } from "./get";
import { listBookings } from "./list";

/** `/bookings`: appointments; writes go through the service's calendar. */
export const bookingsApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listBookings(bookingsApp);
getBooking(bookingsApp);
