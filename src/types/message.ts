/**
 * Messages: the e-mails a business's customers get about their bookings. The calendar decides,
 * in the transaction of each booking change, which change mails the customer (its plan, kept with
 * the change's event); D1 keeps one message row per plan, and the queue consumer sends it.
 */
import type { BookingStatus } from "./booking";

/**
 * `conflict`: a customer asked to pick another time for a booking that stopped fitting;
 * `conflict_alert`: the business told of it (to its `contactEmail`).
 */
export const messageKinds = [
  "confirmation",
  "rescheduled",
  "cancelled",
  "reminder",
  "conflict",
  "conflict_alert",
] as const;
export type MessageKind = (typeof messageKinds)[number];

export const messageStatuses = ["queued", "sent", "failed"] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/** Why a message was not sent (the log's `reason`). */
export const failureReasons = [
  /** The business's hourly number of messages was reached. */
  "hourly_limit",
  /** The e-mail service refused the message (its words follow in `detail`). */
  "refused",
  /** Every retry failed (the service kept failing for a day). */
  "gave_up",
  /** The customer was erased. */
  "erased",
  /** The business turned e-mails off before it went out. */
  "disabled",
  /** No sender address is configured (`EMAIL_FROM`). */
  "no_sender",
] as const;
export type FailureReason = (typeof failureReasons)[number];

/** One booking of a visit or a series, as the calendar decided it (no personal data). */
export type PlannedBooking = {
  id: string;
  serviceId: string;
  startTime: string;
  endTime: string;
  status: BookingStatus;
  version: number;
};

/**
 * What a booking change mails the customer, stored beside the change's event. A visit or a series
 * is confirmed by one message listing every booking (`group`); the customer's name and address
 * are read from the event's booking, so erasure scrubs them where it scrubs the event.
 */
export type MailPlan = {
  kind: MessageKind;
  group?: { id: string; bookings: PlannedBooking[] };
};

/**
 * The plan of a booking change by default: a confirmation for a new booking on its own (a visit's
 * or a series' bookings are confirmed together by their entry) and for a PENDING one confirmed,
 * a notice for a cancellation; nothing for other changes.
 */
export function planFor(
  previous: BookingStatus | null,
  booking: { status: BookingStatus; appointmentId?: string | null; seriesId?: string | null },
): MailPlan | null {
  if (previous === null) return booking.appointmentId || booking.seriesId ? null : { kind: "confirmation" };
  if (booking.status === "CANCELLED" && previous !== "CANCELLED") return { kind: "cancelled" };
  if (previous === "PENDING" && booking.status === "CONFIRMED") return { kind: "confirmation" };
  return null;
}

/** The one confirmation of a visit or series (`groupId`), listing each of its bookings. */
export function confirmationOf(groupId: string, bookings: Pick<PlannedBooking, keyof PlannedBooking>[]): MailPlan {
  return {
    kind: "confirmation",
    group: {
      id: groupId,
      bookings: bookings.map(({ id, serviceId, startTime, endTime, status, version }) => ({
        id,
        serviceId,
        startTime,
        endTime,
        status,
        version,
      })),
    },
  };
}
