/** A booking page's times: the service's live slot calendar, with nothing but times and whether each is bookable. */
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import { type ServiceRead, serviceAvailability } from "../services/availability";
import type { PageBusiness } from "./business";
import { notOffered, onlineService, type PublicService } from "./services";
import { pageService } from "./snapshot";

/** A slot as a page sees it: no seat counts, no other customer's anything. */
export type PublicSlot = { startTime: string; endTime: string; bookable: boolean };

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
  read?: ServiceRead,
) {
  if (range.providerId !== undefined && !service.providers.some((p) => p.id === range.providerId)) {
    throw new ApiError("validation_failed", "The providerId asked for does not perform this service.", {
      errors: [{ path: "providerId", message: "Not one of the service's providers." }],
    });
  }
  const calendar = await serviceAvailability(env, db, page.id, service.id, range, read);
  return {
    serviceId: service.id,
    timezone: calendar.timezone,
    from: calendar.from,
    to: calendar.to,
    slots: calendar.slots.map(({ startTime, endTime, bookable }): PublicSlot => ({ startTime, endTime, bookable })),
  };
}

/**
 * The times of the service the page at `slug` offers under `serviceId` (else a 404), as
 * serviceTimes, with the page and the service read in one D1 round trip (snapshot.ts).
 */
export async function onlineAvailability(
  env: Env,
  db: Database,
  page: { slug: string; address: string },
  serviceId: string,
  range: { from?: string; to?: string; providerId?: string },
) {
  const found = await pageService(env, db, page.slug, page.address, serviceId);
  return serviceTimes(env, db, found.page, found.service, range, found.read);
}
