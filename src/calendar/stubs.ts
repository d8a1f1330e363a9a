/** Addressing a service's calendar (the ServiceCalendar Durable Object). */
import { calendarName } from "./types";

/** The calendar object of a business's service. */
export const serviceCalendarOf = (env: Env, businessId: string, serviceId: string) =>
  env.SERVICE_CALENDAR.get(env.SERVICE_CALENDAR.idFromName(calendarName(businessId, serviceId)));
