/** A new booking: of a slot, or of a hold's seat, decided in the service's calendar. */
import { serviceCalendarOf } from "../calendar";
import { customerIdByEmail } from "../customers/records";
import type { Database } from "../db/client";
import type { Booking } from "../domain/booking";
import { holdOf } from "../holds/records";
import { ApiError } from "../lib/errors";
import type { IdempotencyClaim } from "../lib/idempotency";
import { bookingOrThrow } from "../refusals/problems";
import { loadBookableService } from "../services/bookable";
import { draftOf } from "./draft";

type Target = { serviceId?: string; startTime?: string; endTime?: string; providerId?: string; holdId?: string };

/** A booking request: whom it is for, and its slot or the hold it books. */
export type BookingRequest = Target & Omit<Parameters<typeof draftOf>[0], "startTime" | "endTime">;

/**
 * Books the request in its service's calendar for the business: the service must be the
 * business's and active, a `providerId` one who performs it (a hold's provider keeps it), and the
 * slot free under every rule of the service. The customer is found by e-mail, or made.
 */
export async function createBooking(
  env: Env,
  db: Database,
  businessId: string,
  request: BookingRequest,
  claim: IdempotencyClaim | undefined,
): Promise<{ booking: Booking; replayed: boolean }> {
  // Decided on what D1 holds; once more if the service changed meanwhile (service-version.ts).
  const decide = async () => {
    const target = await bookingTarget(env, db, businessId, request);
    // A hold's provider was checked when it was placed; they keep it even if they left since.
    const providerId = request.holdId ? undefined : target.providerId;
    const {
      service,
      providers,
      resources,
      also: [[customer]],
    } = await loadBookableService(
      db,
      businessId,
      target.serviceId,
      { providerId, answers: request.answers ?? {} },
      customerIdByEmail(db, businessId, request.customerEmail),
    );
    return serviceCalendarOf(env, businessId, service.id).createBooking({
      service,
      booking: draftOf({ ...request, ...target }),
      customerId: customer?.id ?? null,
      idempotency: claim,
      providers,
      resources,
      providerId: target.providerId ?? null,
      holdId: request.holdId ?? null,
    });
  };
  let result = await decide();
  if (!result.ok && result.refusal.code === "service_changed") result = await decide();
  return bookingOrThrow(result);
}

/**
 * What a booking request is for: its own service and times, or those of the hold it names.
 * Fields sent beside a `holdId` must agree with the hold (else 422 at that field).
 */
async function bookingTarget(
  env: Env,
  db: Database,
  businessId: string,
  body: Target,
): Promise<{ serviceId: string; startTime: string; endTime: string; providerId?: string }> {
  if (!body.holdId) return body as { serviceId: string; startTime: string; endTime: string };
  const hold = (await holdOf(env, db, businessId, body.holdId))?.hold;
  if (!hold) {
    throw new ApiError("validation_failed", `No hold ${body.holdId}.`, {
      errors: [{ path: "holdId", message: "No such hold." }],
    });
  }
  const fromHold = {
    serviceId: hold.serviceId,
    startTime: hold.startTime,
    endTime: hold.endTime,
    providerId: hold.providerId ?? undefined,
  };
  const errors = (["serviceId", "startTime", "endTime", "providerId"] as const).flatMap((field) => {
    const sent = body[field];
    const same =
      field.endsWith("Time") && sent
        ? Date.parse(sent) === Date.parse(fromHold[field] ?? "")
        : sent === fromHold[field];
    return sent === undefined || same ? [] : [{ path: field, message: "Differs from the hold's." }];
  });
  if (errors.length > 0) throw new ApiError("validation_failed", "The request disagrees with the hold.", { errors });
  return fromHold;
}
