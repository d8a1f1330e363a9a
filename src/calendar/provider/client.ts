/** Addressing a person's calendar (the ProviderCalendar Durable Object). */
import { providerCalendarName } from "./types";

/** The calendar stub of a business's provider. */
export function providerCalendarOf(env: Env, businessId: string, providerId: string) {
  return env.PROVIDER_CALENDAR.get(env.PROVIDER_CALENDAR.idFromName(providerCalendarName(businessId, providerId)));
}
