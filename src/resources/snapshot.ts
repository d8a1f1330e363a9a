import type { ResourceSnapshot } from "../calendar";
import type { ResourceRow } from "../db/schema";

/** What a resource's calendar needs to know of it. */
export function resourceSnapshotOf(resource: ResourceRow): ResourceSnapshot {
  return {
    id: resource.id,
    businessId: resource.businessId,
    version: resource.version,
    active: resource.active,
    quantity: resource.quantity,
    timezone: resource.timezone,
    weeklySchedule: resource.weeklySchedule ?? null,
    dateOverrides: resource.dateOverrides,
  };
}
