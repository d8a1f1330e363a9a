/** A new booking: of a slot, or of a hold's seat, decided in the service's calendar in one call. */

import { type CreateBookingCommand, serviceCalendarOf } from "../calendar";
import { customerIdByEmail } from "../customers/records";
import type { Database } from "../db/client";
import { serviceOfHold } from "../holds/records";
import type { IdempotencyLock } from "../lib/idempotency";
import { bookingOrThrow, throwRefusal } from "../refusals";
import { loadBookableService } from "../services/bookable";
import type { Author } from "../types/actor";
import type { Booking } from "../types/booking";
import { customerDraftOf, draftOf } from "./draft";

type Target = { serviceId?: string; startTime?: string; endTime?: string; providerId?: string; holdId?: string };

/** A booking request: whom it is for, and its slot or the hold it books. */
export type BookingRequest = Target & Parameters<typeof customerDraftOf>[0];

/**
 * Books the request in its service's calendar for the business: the service must be the
 * business's and active, a `providerId` one who performs it (a hold's provider keeps it), and the
 * slot free under every rule of the service. The customer is found by e-mail, or made. With a
 * `holdId`, D1 says which service's calendar keeps the hold, and that calendar finds the hold,
 * checks the fields sent beside it (each must agree with the hold's, else 422 at that field) and
 * books it, in one call.
 */
export async function createBooking(
  env: Env,
  db: Database,
  { businessId, actor }: Author,
  request: BookingRequest,
  lock: IdempotencyLock | undefined,
): Promise<{ booking: Booking; replayed: boolean }> {
  const { holdId } = request;
  // Without a holdId the request has a serviceId (the schema requires it).
  const serviceId = holdId ? await serviceOfHold(db, businessId, holdId) : request.serviceId;
  if (!serviceId) throwRefusal({ code: "no_such_hold", detail: `No hold ${holdId}.` });
  // Decided on what D1 holds; once more if the service changed meanwhile (calendar/service/tables/service-version.ts).
  const decide = async () => {
    // A hold's provider was checked when it was placed; they keep it even if they left since.
    const providerId = holdId ? undefined : request.providerId;
    const {
      service,
      providers,
      resources,
      also: [[customer]],
    } = await loadBookableService(
      db,
      businessId,
      serviceId,
      { providerId, answers: request.answers ?? {} },
      customerIdByEmail(db, businessId, request.customerEmail),
    );
    const common = { service, customerId: customer?.id ?? null, idempotency: lock, providers, resources, actor };
    const { startTime, endTime } = request;
    const command: CreateBookingCommand = holdId
      ? {
          ...common,
          providerId: null,
          booking: customerDraftOf(request),
          hold: {
            id: holdId,
            sent: { serviceId: request.serviceId, startTime, endTime, providerId: request.providerId },
          },
        }
      : {
          ...common,
          providerId: providerId ?? null,
          booking: draftOf({ ...request, startTime: startTime as string, endTime: endTime as string }),
        };
    return serviceCalendarOf(env, businessId, service.id).createBooking(command);
  };
  let result = await decide();
  if (!result.ok && result.refusal.code === "service_changed") result = await decide();
  return bookingOrThrow(result);
}
