/** The live slot calendar of a service: its rules, its calendar's seats and, with providers, their time. */
import { type ProviderSnapshot, type ResourceSnapshot, slotCalendar } from "../calendar";
import { slotBeyond } from "../calendar/rules";
import type { Database } from "../db/client";
import type { ReadBatch } from "../db/prepared";
import type { ProviderRow, ResourceRow, ServiceRow } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { LAST_INSTANT } from "../lib/datetime";
import { providerSnapshotOf } from "../providers/snapshot";
import { resourceSnapshotOf } from "../resources/snapshot";
import { loadCalendarOf } from "./availability-reads";
import { serviceSnapshotOf } from "./snapshot";

const DAY = 86_400_000;

/**
 * A service and its links as a caller already read them (the booking page reads them in the
 * D1 round trip that finds the page), so the calendar is asked without reading them again.
 */
export type ServiceRead = {
  service: ServiceRow;
  providers: { provider: ProviderRow }[];
  resources: { resource: ResourceRow }[];
};
/** The longest range one answer covers. */
export const MAX_RANGE_DAYS = 31;
/** The most slots one response lists (a 1-minute grid around the clock would be 44,640 in 31 days). */
export const MAX_SLOTS = 2_000;

/**
 * Every slot of the business's service that starts in `[from, to)` (`from` defaults to now, `to`
 * to `from` + 7 days, cut at LAST_INSTANT) with its live seat counts; on a service with providers, over their sessions
 * (or the one asked for); on one with resources, bookable only when each (or the one asked for)
 * has a unit free. A range longer than MAX_RANGE_DAYS, or holding more than MAX_SLOTS
 * slots, is a 422 on `to`; an inactive service lists its slots, none bookable. A `providerId` who
 * does not perform the service is a 422 on `providerId`, or with `orAnyone` (a manage link's own
 * booking's person, whom the customer never named) the service's slots with any of its providers.
 * `read`: the service and its links already read, or a reader to read them with in one batch (a
 * request's, which folds its key check in); else they are read in one batch of their own.
 */
export async function serviceAvailability(
  env: Env,
  db: Database,
  businessId: string,
  serviceId: string,
  range: { from?: string; to?: string; providerId?: string; resourceId?: string; orAnyone?: boolean },
  read?: ServiceRead | ReadBatch,
) {
  const from = range.from ? Date.parse(range.from) : Date.now();
  if (from >= LAST_INSTANT) {
    const last = new Date(LAST_INSTANT).toISOString();
    throw new ApiError("validation_failed", `Use a from before ${last}, the last instant the API writes.`, {
      errors: [{ path: "from", message: `Must be before ${last}.` }],
    });
  }
  // The default week is cut at the last instant: past it no time can be written.
  const to = range.to ? Date.parse(range.to) : Math.min(from + 7 * DAY, LAST_INSTANT);
  if (to <= from || to - from > MAX_RANGE_DAYS * DAY) {
    throw new ApiError("validation_failed", `Use a range with from < to of at most ${MAX_RANGE_DAYS} days.`, {
      errors: [{ path: "to", message: `Must be after from and at most ${MAX_RANGE_DAYS} days later.` }],
    });
  }
  const loaded = typeof read === "object" ? read : await loadCalendarOf(env, db, businessId, serviceId, read);
  const { service } = loaded;
  const rules = serviceSnapshotOf(service);
  // Counted here, stopping at the bound, so an oversized range never reaches the calendar.
  const overflow = slotBeyond(rules, from, to, MAX_SLOTS);
  if (overflow !== undefined) {
    const fits = new Date(overflow).toISOString();
    throw new ApiError(
      "validation_failed",
      `This range holds more than ${MAX_SLOTS} slots (the service has one every ${rules.slotIntervalMinutes} minutes). Narrow it: with this from, use a to of at most ${fits}, then continue with from=${fits}.`,
      {
        errors: [
          { path: "to", message: `Must be at most ${fits} for this from: at most ${MAX_SLOTS} slots per call.` },
        ],
      },
    );
  }
  const offering = providersOf(loaded.providers, range, service.providerMode === "all");
  const resources = resourcesOf(loaded.resources, range.resourceId);
  const slots = await slotCalendar(env, rules, from, to, { providers: offering, resources });
  return {
    serviceId: service.id,
    timezone: service.timezone,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    // An inactive service's slots name no limit: booking one answers service_inactive.
    slots: slots.map(({ reason, ...slot }) =>
      service.active ? { ...slot, ...(reason ? { reason } : {}) } : { ...slot, bookable: false },
    ),
  };
}

/**
 * The providers of a service (or the one asked for); undefined for a service without providers.
 * A team's session needs every provider, so asking for one of them keeps the whole team.
 */
function providersOf(
  rows: ServiceRead["providers"],
  request: { providerId?: string; orAnyone?: boolean },
  team: boolean,
): ProviderSnapshot[] | undefined {
  const performs = rows.some((row) => row.provider.id === request.providerId);
  const providerId = request.orAnyone && !performs ? undefined : request.providerId;
  if (rows.length === 0 && providerId === undefined) return undefined;
  const asked = providerId === undefined ? rows : rows.filter((row) => row.provider.id === providerId);
  const chosen = team && asked.length > 0 ? rows : asked;
  if (chosen.length === 0) {
    // The detail does not quote the query: an id sent there may name another business's row.
    throw new ApiError("validation_failed", "The providerId asked for does not perform this service.", {
      errors: [{ path: "providerId", message: "Not one of the service's providerIds." }],
    });
  }
  return chosen.map(({ provider }) => providerSnapshotOf(provider));
}

/** The resources a service needs (or the one asked for, which must be one of them). */
function resourcesOf(rows: ServiceRead["resources"], resourceId: string | undefined): ResourceSnapshot[] {
  const chosen = resourceId === undefined ? rows : rows.filter((row) => row.resource.id === resourceId);
  if (resourceId !== undefined && chosen.length === 0) {
    throw new ApiError("validation_failed", "The resourceId asked for is not one this service needs.", {
      errors: [{ path: "resourceId", message: "Not one of the service's resourceIds." }],
    });
  }
  return chosen.map(({ resource }) => resourceSnapshotOf(resource));
}
