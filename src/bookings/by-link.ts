/**
 * What a customer can do with a manage link: see their booking, the times it could move to, move
 * it and cancel it — through the same calendar paths as the API, bound by the service's policy
 * windows (the calendar checks them in the step that makes the change).
 */

import { customerActor } from "../audit/booking-events";
import { serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { withManageUrl } from "../manage-links/present";
import { type OpenLink, providerNamesOf } from "../manage-links/records";
import { bookingOrThrow } from "../refusals";
import { serviceAvailability } from "../services/availability";
import { holdsCapacity } from "../types/booking";
import { rescheduleInService } from "./reschedule";

/** Until when a customer may still make a change whose notice is `minutes`; null once none can be made. */
const changeableUntil = (link: OpenLink, minutes: number) =>
  holdsCapacity(link.booking.status)
    ? new Date(Date.parse(link.booking.startTime) - minutes * 60_000).toISOString()
    : null;

/**
 * The notice a move by link is bound by: its own, and the cancellation notice too, since a move
 * frees the booking's time as a cancel does (a link must not move a booking it may not cancel,
 * then cancel it from its new time). A booking that stopped fitting, whose business asks its
 * customers to move such bookings, may move until it starts.
 */
const moveNoticeMinutes = ({ service, conflicted }: OpenLink) =>
  conflicted ? 0 : Math.max(service.rescheduleNoticeMinutes, service.cancellationNoticeMinutes);

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
    reschedulableUntil: changeableUntil(link, moveNoticeMinutes(link)),
    manageUrl: booking.manageUrl,
  };
}

/** The view of the booking after a change the calendar made. */
const after = async (env: Env, link: OpenLink, changed: Parameters<typeof withManageUrl>[2]) => {
  return managedView({ ...link, booking: await withManageUrl(env, link, changed) });
};

/** Cancels the link's booking, unless the cancellation notice has begun (409 `policy_window`). */
export async function cancelByLink(env: Env, link: OpenLink, reason: string | undefined) {
  // The link already read the booking and knows its service: straight to its calendar.
  const result = await serviceCalendarOf(env, link.businessId, link.service.id).changeBookingStatus({
    bookingId: link.booking.id,
    status: "CANCELLED",
    cancellationReason: reason ?? null,
    customerNoticeMinutes: link.service.cancellationNoticeMinutes,
    actor: customerActor(link.booking.id),
  });
  return after(env, link, bookingOrThrow(result).booking);
}

/**
 * Moves the link's booking, unless the reschedule or cancellation notice has begun: with its own
 * provider while they perform the service; once they no longer do, with one of its current
 * providers who is free then (a customer cannot name one, and has nothing else to act on).
 */
export async function rescheduleByLink(
  env: Env,
  db: Database,
  link: OpenLink,
  time: { startTime: string; endTime: string },
) {
  // The link has read the booking already: its service's rules, then its calendar.
  const { booking } = await rescheduleInService(
    env,
    db,
    link.businessId,
    { id: link.booking.id, serviceId: link.service.id },
    time,
    {
      customerNoticeMinutes: moveNoticeMinutes(link),
      reassignIfLeft: true,
      actor: customerActor(link.booking.id),
    },
  );
  // Moved to someone else: the view names who performs it now.
  const sameProviders = booking.providerIds.join() === link.booking.providerIds.join();
  const providerNames = sameProviders
    ? link.providerNames
    : await providerNamesOf(db, link.businessId, booking.providerIds);
  return after(env, { ...link, providerNames }, booking);
}

/**
 * The times the booking could move to: its service's slots (its own provider's, while they
 * perform the service; else those of all its current providers, as a move would go to any of
 * them), each only with its times and whether it is bookable — no counts, no ids of other people.
 */
export async function linkAvailability(env: Env, db: Database, link: OpenLink, range: { from?: string; to?: string }) {
  // A team's booking has no one provider: its slots are the whole team's, as for the service.
  const providerId = link.booking.providerId ?? undefined;
  const calendar = await serviceAvailability(env, db, link.businessId, link.service.id, {
    ...range,
    providerId,
    orAnyone: true,
  });
  return {
    timezone: calendar.timezone,
    from: calendar.from,
    to: calendar.to,
    slots: calendar.slots.map(({ startTime, endTime, bookable }) => ({ startTime, endTime, bookable })),
  };
}
