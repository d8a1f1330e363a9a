import { reschedule } from "../calendar";
import type { Database } from "../db/client";
import { ApiError } from "../lib/errors";
import type { IdempotencyClaim } from "../lib/idempotency";
import { loadBookableService } from "../services/bookable";
import { loadBooking } from "./records";
import { bookingOrThrow } from "./refusal";

/** Where a booking moves: new times, and maybe another of the service's providers. */
export type Move = { startTime: string; endTime: string; providerId?: string };

/**
 * Moves the business's booking to a new time (and maybe provider) in its service's calendar,
 * under every rule of a new booking, the first being an active service (422 `service_inactive`).
 * `expectedVersions` are the versions If-Match allows (any, when undefined); `customerNoticeMinutes`
 * binds a customer's manage link to the service's policy window.
 */
export async function moveBooking(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  move: Move,
  expectedVersions: number[] | undefined,
  claim: IdempotencyClaim | undefined,
  customerNoticeMinutes?: number,
) {
  const stored = await loadBooking(db, businessId, id);
  const { service, providers, resources } = await loadBookableService(db, businessId, stored.serviceId, {
    missing: () => new ApiError("not_found", `No booking ${id}.`),
    inactive: () =>
      new ApiError("service_inactive", `Service ${stored.serviceId} is not active; its bookings cannot move.`),
    providerId: move.providerId,
  });
  const result = await reschedule(env, {
    bookingId: id,
    startTime: move.startTime,
    endTime: move.endTime,
    providerId: move.providerId ?? null,
    service,
    providers,
    resources,
    expectedVersions,
    idempotency: claim,
    customerNoticeMinutes,
  });
  return bookingOrThrow(result);
}
