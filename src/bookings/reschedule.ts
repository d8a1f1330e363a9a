import { serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import type { IdempotencyLock } from "../lib/idempotency";
import { bookingOrThrow } from "../refusals";
import { loadBookableService } from "../services/bookable";
import type { Actor } from "../types/actor";
import { loadBooking } from "./list";

/** Where a booking moves: new times, and maybe another of the service's providers. */
export type Move = { startTime: string; endTime: string; providerId?: string };

/**
 * What makes a move conditional or repeatable, or a customer's: the versions If-Match allows
 * (any, when absent), the `Idempotency-Key`, the notice a manage link is bound by, and whether a
 * booking whose person left the service goes to another who is free (a manage link's move).
 */
export type MoveOptions = {
  expectedVersions?: number[];
  lock?: IdempotencyLock;
  customerNoticeMinutes?: number;
  reassignIfLeft?: boolean;
  /** Who asks, for the audit. */
  actor?: Actor;
};

/**
 * Moves the business's booking to a new time (and maybe provider) in its service's calendar,
 * under every rule of a new booking, the first being an active service (422 `service_inactive`).
 */
export async function rescheduleBooking(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  move: Move,
  options: MoveOptions = {},
) {
  const stored = await loadBooking(db, businessId, id);
  return rescheduleInService(env, db, businessId, { id, serviceId: stored.serviceId }, move, options);
}

/** `rescheduleBooking` for a caller that has read the booking already (a manage link): its id and service. */
export async function rescheduleInService(
  env: Env,
  db: Database,
  businessId: string,
  booking: { id: string; serviceId: string },
  move: Move,
  { expectedVersions, lock, customerNoticeMinutes, reassignIfLeft, actor }: MoveOptions = {},
) {
  const { service, providers, resources } = await loadBookableService(db, businessId, booking.serviceId, {
    missing: () => new ApiError("not_found", `No booking ${booking.id}.`),
    inactive: () =>
      new ApiError("service_inactive", `Service ${booking.serviceId} is not active; its bookings cannot move.`),
    providerId: move.providerId,
  });
  const result = await serviceCalendarOf(env, businessId, booking.serviceId).rescheduleBooking({
    bookingId: booking.id,
    startTime: move.startTime,
    endTime: move.endTime,
    providerId: move.providerId ?? null,
    service,
    providers,
    resources,
    expectedVersions,
    idempotency: lock,
    customerNoticeMinutes,
    reassignIfLeft,
    actor,
  });
  return bookingOrThrow(result);
}
