/** Addressing the calendar objects: a service's, and those bookings claim time in. */
import type { ClaimedKind, ClaimResult, ClaimsResult } from "./claim-types";

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

/** The calendar a claim on a person's or a resource's time lives in. */
export function claimedCalendarOf(
  env: Env,
  businessId: string,
  ref: { calendar: "provider" | "resource"; id: string },
) {
  return ref.calendar === "resource"
    ? resourceCalendarOf(env, businessId, ref.id)
    : providerCalendarOf(env, businessId, ref.id);
}

/**
 * What the entry of a claim needs of any claimed calendar, a service's seats included: claim
 * (one, or several in one call), confirm, release (several in one call). Each answers as it does
 * on a person's calendar.
 */
export type ClaimTarget = {
  claim(command: unknown): Promise<ClaimResult>;
  claimEach(commands: unknown[]): Promise<ClaimsResult>;
  confirm(payload: unknown): Promise<{ ok: boolean }>;
  releaseEach(claimIds: string[]): Promise<unknown>;
};

/** The calendar any claim lives in, as the claim protocol talks to it. */
export function claimTargetOf(env: Env, businessId: string, ref: { calendar: ClaimedKind; id: string }): ClaimTarget {
  const stub =
    ref.calendar === "service"
      ? serviceCalendarOf(env, businessId, ref.id)
      : claimedCalendarOf(env, businessId, { calendar: ref.calendar, id: ref.id });
  return stub as unknown as ClaimTarget;
}
