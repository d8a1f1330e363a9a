/** Addressing the calendar objects: a service's, and those bookings claim time in. */
import type { ClaimedKind } from "./claim-types";

/** The Durable Object name of a business's service, person or resource. */
export const objectName = (businessId: string, ownerId: string) => `${businessId}:${ownerId}`;

/** The calendar object of a business's service. */
export const serviceCalendarOf = (env: Env, businessId: string, serviceId: string) =>
  env.SERVICE_CALENDAR.get(env.SERVICE_CALENDAR.idFromName(objectName(businessId, serviceId)));

/** The calendar object of a business's person. */
export const providerCalendarOf = (env: Env, businessId: string, providerId: string) =>
  env.PROVIDER_CALENDAR.get(env.PROVIDER_CALENDAR.idFromName(objectName(businessId, providerId)));

/** The calendar object of a business's resource. */
export const resourceCalendarOf = (env: Env, businessId: string, resourceId: string) =>
  env.RESOURCE_CALENDAR.get(env.RESOURCE_CALENDAR.idFromName(objectName(businessId, resourceId)));

/** The calendar a claim lives in. */
export function claimedCalendarOf(env: Env, businessId: string, ref: { calendar: ClaimedKind; id: string }) {
  return ref.calendar === "resource"
    ? resourceCalendarOf(env, businessId, ref.id)
    : providerCalendarOf(env, businessId, ref.id);
}
