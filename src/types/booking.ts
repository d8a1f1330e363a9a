/**
 * A booking: its lifecycle statuses, the record the calendar keeps (and D1 stores), and the public
 * shape clients see (API responses, webhook payloads). The routes' zod schema is checked against
 * the public shape, so they cannot drift.
 */
import type { Answers } from "./questions";

/**
 * A booking that stops fitting (docs/staff-calendars.md, "Conflicts"): what no longer holds, when
 * it was found, and a sentence saying so. Each is keyed by the booking, the calendar that found
 * it (a person's or a room's) and its kind, so a cause found again at every sync stays one.
 */

export const conflictKinds = ["calendar_busy", "outside_hours", "time_off", "resource_closed"] as const;
export type ConflictKind = (typeof conflictKinds)[number];

/** A conflict as a booking answer carries it. */
export type BookingConflict = { kind: ConflictKind; detectedAt: string; detail: string };

export const bookingStatuses = ["PENDING", "CONFIRMED", "CANCELLED", "COMPLETED", "NO_SHOW"] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** Allowed status changes (docs/api-behaviour.md, "Booking statuses"). PENDING and CONFIRMED hold capacity. */
export const allowedTransitions: Record<BookingStatus, readonly BookingStatus[]> = {
  PENDING: ["CONFIRMED", "CANCELLED"],
  CONFIRMED: ["CANCELLED", "COMPLETED", "NO_SHOW"],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
};

/** Whether a booking in `from` may move to `to`. */
export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return allowedTransitions[from].includes(to);
}

/** A booking as its calendar keeps it and D1 stores it. */
export type BookingRecord = {
  id: string;
  businessId: string;
  serviceId: string;
  /** The person who performs it; null (or absent in records older than people) for none or a team. */
  providerId?: string | null;
  /** Everyone claimed for it: the one person, or a team (absent in older records: `providerId` alone). */
  providerIds?: string[];
  /** The resources it takes a unit of (absent in older records: none). */
  resourceIds?: string[];
  customerId: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  startTime: string;
  endTime: string;
  notes: string | null;
  /** Answers to the service's questions (absent in records older than questions: none). */
  answers?: Answers;
  status: BookingStatus;
  /** Moves forward on every change; D1 keeps the highest it has seen. */
  version: number;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancellationReason: string | null;
  /** The hold it was made from, if any (its D1 row ends in the booking's own write). */
  holdId?: string;
  /** The visit (`apt_…`) it is a segment of; absent or null for a booking on its own. */
  appointmentId?: string | null;
  /** The series (`ser_…`) it is an occurrence of; absent or null otherwise. */
  seriesId?: string | null;
};

/** The public shape of a booking. */
export type Booking = Flat<
  Omit<
    BookingRecord,
    | "businessId"
    | "version"
    | "holdId"
    | "providerId"
    | "providerIds"
    | "resourceIds"
    | "answers"
    | "appointmentId"
    | "seriesId"
  > & {
    /** The person who performs it; null for services without providers, and for a team. */
    providerId: string | null;
    /** Everyone claimed for it: `[]`, the one person, or the whole team. */
    providerIds: string[];
    /** The resources it takes a unit of. */
    resourceIds: string[];
    /** Answers to the service's questions, by key; `{}` for none. */
    answers: Answers;
    /** The visit it is a segment of, or null. */
    appointmentId: string | null;
    /** The series it is an occurrence of, or null. */
    seriesId: string | null;
  }
>;

/** One object type of an intersection (so it compares equal to a written-out one). */
type Flat<T> = { [K in keyof T]: T[K] };

/** The public shape of a booking record. */
export function toBooking(row: Omit<BookingRecord, "businessId" | "version">): Booking {
  return {
    id: row.id,
    serviceId: row.serviceId,
    providerId: row.providerId ?? null,
    providerIds: row.providerIds ?? (row.providerId ? [row.providerId] : []),
    resourceIds: row.resourceIds ?? [],
    customerId: row.customerId,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    customerPhone: row.customerPhone,
    startTime: row.startTime,
    endTime: row.endTime,
    notes: row.notes,
    answers: row.answers ?? {},
    appointmentId: row.appointmentId ?? null,
    seriesId: row.seriesId ?? null,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    cancelledAt: row.cancelledAt,
    cancellationReason: row.cancellationReason,
  };
}

/** Statuses that take a seat: a booking in one of them holds capacity. */
export const HOLDING_STATUSES = ["PENDING", "CONFIRMED"] as const satisfies readonly BookingStatus[];

/** Whether a booking in `status` takes a seat. */
export const holdsCapacity = (status: BookingStatus) => (HOLDING_STATUSES as readonly BookingStatus[]).includes(status);

/** What a bookings list may be narrowed to; `from` and `to` bound the booking's start. */
export type BookingFilters = {
  status?: BookingStatus;
  serviceId?: string;
  customerId?: string;
  /** Bookings that claimed this person: the one who performs it, or one of a team. */
  providerId?: string;
  /** Bookings that took a unit of this resource. */
  resourceId?: string;
  from?: string;
  to?: string;
  /** `"true"`: only bookings with an open conflict; `"false"`: only those without. */
  conflicted?: "true" | "false";
};
