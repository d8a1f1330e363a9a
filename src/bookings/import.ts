import { type ImportResult, serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import { loadBookableService } from "../services/bookable";
import { ownerOfService } from "../services/records";
import { draftOf } from "./draft";

/** One booking to import: a booking request's fields, with its times and maybe its provider. */
export type ImportedBookingRequest = Parameters<typeof draftOf>[0] & { providerId?: string };

/**
 * The operator's import of existing bookings into a service of any business, active or not:
 * each passes the rules of a new booking in the service's calendar, and the answer lists those
 * that did not fit. A `providerId` that does not perform the service is a 422 at its item.
 */
export async function importBookings(
  env: Env,
  db: Database,
  serviceId: string,
  items: ImportedBookingRequest[],
): Promise<ImportResult> {
  const missing = () => new ApiError("not_found", `No service ${serviceId}.`);
  const businessId = await ownerOfService(db, serviceId);
  const { service, providers, resources } = await loadBookableService(db, businessId, serviceId, {
    missing,
    inactive: null,
  });
  const errors = items.flatMap((b, i) =>
    b.providerId === undefined || providers.some((p) => p.id === b.providerId)
      ? []
      : [{ path: `bookings.${i}.providerId`, message: "Not one of the service's providerIds." }],
  );
  if (errors.length > 0) throw new ApiError("validation_failed", "The request body is invalid.", { errors });
  const bookings = items.map((b) => ({ ...draftOf(b), providerId: b.providerId ?? null }));
  return serviceCalendarOf(env, businessId, service.id).importBookings(service, bookings, providers, resources);
}
