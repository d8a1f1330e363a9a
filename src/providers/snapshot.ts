import type { ProviderSnapshot } from "../calendar";
import type { ProviderRow } from "../db/schema";

/** What a person's calendar needs to know of them. */
export function providerSnapshotOf(provider: ProviderRow): ProviderSnapshot {
  return {
    id: provider.id,
    businessId: provider.businessId,
    version: provider.version,
    active: provider.active,
    timezone: provider.timezone,
    weeklySchedule: provider.weeklySchedule,
    dateOverrides: provider.dateOverrides,
    limits: provider.limits,
  };
}
