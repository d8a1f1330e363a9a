/** A booking page's times: the service's live slot calendar, with nothing but times and whether each is bookable. */
import type { Database } from "../db/client";
import { ApiError } from "../lib/errors";
import { serviceAvailability } from "../services/availability";
import type { PageBusiness } from "./business";
import { onlineService, type PublicService } from "./services";

/** A slot as a page sees it: no seat counts, no other customer's anything. */
export type PublicSlot = { startTime: string; endTime: string; bookable: boolean };

/** The 404 of a service the page does not offer (unknown, another business's, inactive or not online). */
export const notOffered = () => new ApiError("not_found", "This booking page offers no such service.");

/** The service the page offers under this id, or a 404. */
export async function offeredService(db: Database, page: PageBusiness, serviceId: string): Promise<PublicService> {
  const service = await onlineService(db, page.id, serviceId);
  if (!service) throw notOffered();
  return service;
}

/**
 * The slots of the page's service that start in [from, to) (defaults and bounds as the service's
 * availability: from now, 7 days, at most 31 days and 2,000 slots), with one of its people's
 * (`providerId`, which must be one of them: else a 422) or anyone's seats.
 */
export async function serviceTimes(
  env: Env,
  db: Database,
  page: PageBusiness,
  service: PublicService,
  range: { from?: string; to?: string; providerId?: string },
) {
  if (range.providerId !== undefined && !service.providers.some((p) => p.id === range.providerId)) {
    throw new ApiError("validation_failed", "The providerId asked for does not perform this service.", {
      errors: [{ path: "providerId", message: "Not one of the service's providers." }],
    });
  }
  const calendar = await serviceAvailability(env, db, page.id, service.id, range);
  return {
    serviceId: service.id,
    timezone: calendar.timezone,
    from: calendar.from,
    to: calendar.to,
    slots: calendar.slots.map(({ startTime, endTime, bookable }): PublicSlot => ({ startTime, endTime, bookable })),
  };
}

/** The times of the service the page offers under `serviceId` (else a 404), as serviceTimes. */
export async function onlineAvailability(
  env: Env,
  db: Database,
  page: PageBusiness,
  serviceId: string,
  range: { from?: string; to?: string; providerId?: string },
) {
  return serviceTimes(env, db, page, await offeredService(db, page, serviceId), range);
}
