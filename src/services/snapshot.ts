import type { ServiceSnapshot } from "../calendar";
import type { ServiceRow } from "../db/schema";

/** What the calendar needs to know of a service, sent with every command so edits apply at once. */
export function serviceSnapshotOf(service: ServiceRow): ServiceSnapshot {
  return {
    id: service.id,
    businessId: service.businessId,
    version: service.version,
    durationMinutes: service.durationMinutes,
    capacity: service.capacity,
    slotIntervalMinutes: service.slotIntervalMinutes,
    bufferBeforeMinutes: service.bufferBeforeMinutes,
    bufferAfterMinutes: service.bufferAfterMinutes,
    minNoticeMinutes: service.minNoticeMinutes,
    maxAdvanceDays: service.maxAdvanceDays,
    timezone: service.timezone,
    weeklySchedule: service.weeklySchedule,
    dateOverrides: service.dateOverrides,
    requiresConfirmation: service.requiresConfirmation,
    providerMode: service.providerMode,
    reminders: service.reminders.map((r) => r.offsetMinutes),
    limits: service.limits,
    maxActivePerCustomer: service.maxActivePerCustomer,
    assignment: service.assignment,
  };
}
