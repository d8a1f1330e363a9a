/** The Worker's side of the provider calendar: addressing the Durable Object and what it is told. */
import type { ProviderRow } from "../../db/schema";
import { type ProviderSnapshot, providerCalendarName } from "./types";

/** The calendar stub of a business's provider. */
export function providerCalendarOf(env: Env, businessId: string, providerId: string) {
  return env.PROVIDER_CALENDAR.get(env.PROVIDER_CALENDAR.idFromName(providerCalendarName(businessId, providerId)));
}

/** What the provider calendar needs to know of a provider. */
export function providerSnapshotOf(provider: ProviderRow): ProviderSnapshot {
  return {
    id: provider.id,
    businessId: provider.businessId,
    version: provider.version,
    active: provider.active,
    timezone: provider.timezone,
    weeklySchedule: provider.weeklySchedule,
    dateOverrides: provider.dateOverrides,
  };
}
