/**
 * What a customer can do with a manage link: see their booking, the times it could move to, move
 * it and cancel it — through the same calendar paths as the API, bound by the service's policy
 * windows (the calendar checks them in the step that makes the change).
 */
import { moveBooking } from "../bookings/move";
import { bookingOrThrow } from "../bookings/refusal";
import { changeBooking } from "../calendar";
import type { Database } from "../db/client";
import { holdsCapacity } from "../domain/booking";
import { serviceAvailability } from "../services/availability";
import { withManageUrl } from "./present";
import type { OpenLink } from "./records";

/** Until when a customer may still make a change whose notice is `minutes`; null once none can be made. */
const changeableUntil = (link: OpenLink, minutes: number) =>
  holdsCapacity(link.booking.status)
    ? new Date(Date.parse(link.booking.startTime) - minutes * 60_000).toISOString()
    : null;

/** The booking as its customer sees it: theirs alone, with names instead of the business's ids. */
export function managedView(link: OpenLink) {
  const { booking, service } = link;
  return {
    id: booking.id,
    status: booking.status,
    startTime: booking.startTime,
    endTime: booking.endTime,
    service: { name: service.name, durationMinutes: service.durationMinutes, timezone: service.timezone },
    providerNames: link.providerNames,
    customerName: booking.customerName,
    customerEmail: booking.customerEmail,
    customerPhone: booking.customerPhone,
    notes: booking.notes,
    cancelledAt: booking.cancelledAt,
    cancellationReason: booking.cancellationReason,
    cancellableUntil: changeableUntil(link, service.cancellationNoticeMinutes),
    reschedulableUntil: changeableUntil(link, service.rescheduleNoticeMinutes),
    manageUrl: booking.manageUrl,
  };
}

/** The view of the booking after a change the calendar made. */
const after = async (env: Env, link: OpenLink, changed: Parameters<typeof withManageUrl>[2]) => {
  const booking = await withManageUrl(env, link, changed);
  return managedView({ ...link, booking: { ...booking, manageUrl: booking.manageUrl ?? null } });
};

/** Cancels the link's booking, unless the cancellation notice has begun (409 `policy_window`). */
export async function cancelByLink(env: Env, link: OpenLink, reason: string | undefined) {
  // The link already read the booking and knows its service: straight to its calendar.
  const result = await changeBooking(env, link.businessId, link.service.id, {
    bookingId: link.booking.id,
    status: "CANCELLED",
    cancellationReason: reason ?? null,
    customerNoticeMinutes: link.service.cancellationNoticeMinutes,
  });
  return after(env, link, bookingOrThrow(result).booking);
}

/** Moves the link's booking (its own provider), unless the reschedule notice has begun. */
export async function rescheduleByLink(
  env: Env,
  db: Database,
  link: OpenLink,
  time: { startTime: string; endTime: string },
) {
  const { booking } = await moveBooking(
    env,
    db,
    link.businessId,
    link.booking.id,
    time,
    undefined,
    undefined,
    link.service.rescheduleNoticeMinutes,
  );
  return after(env, link, booking);
}

/**
 * The times the booking could move to: its service's slots (its own provider's, when it has one),
 * each only with its times and whether it is bookable — no counts, no ids of other people.
 */
export async function linkAvailability(env: Env, db: Database, link: OpenLink, range: { from?: string; to?: string }) {
  const providerId = link.booking.providerIds.length === 1 ? (link.booking.providerId ?? undefined) : undefined;
  const calendar = await serviceAvailability(env, db, link.businessId, link.service.id, { ...range, providerId });
  return {
    timezone: calendar.timezone,
    from: calendar.from,
    to: calendar.to,
    slots: calendar.slots.map(({ startTime, endTime, bookable }) => ({ startTime, endTime, bookable })),
  };
}
