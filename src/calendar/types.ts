/** The typed contract between the routes and the ServiceCalendar Durable Object. */

import type { Booking, BookingStatus } from "../domain/booking";
import type { ProviderReason } from "./provider/reasons";
import type { ProviderSnapshot } from "./provider/types";
import type { ServiceRules } from "./rules";

/** The service as the calendar needs it, sent with every call so edits apply at once. */
export type ServiceSnapshot = ServiceRules & {
  id: string;
  businessId: string;
  requiresConfirmation: boolean;
  /** The service's version in D1 when the Worker read it (service-version.ts). */
  version: number;
};

export type CreateBookingCommand = {
  service: ServiceSnapshot;
  booking: {
    customerName: string;
    customerEmail: string;
    customerPhone: string | null;
    startTime: string;
    endTime: string;
    notes: string | null;
  };
  /** The customer's id if D1 already knows the e-mail; otherwise the calendar makes one. */
  customerId: string | null;
  idempotency?: { key: string; requestHash: string };
  /**
   * The service's providers (empty or absent: a service without providers). With providers, the
   * booking needs a claim on one person's time from that person's ProviderCalendar.
   */
  providers?: ProviderSnapshot[];
  /** The provider the client asked for; absent = the calendar assigns one. */
  providerId?: string | null;
  /** A live hold of this calendar to turn into the booking (its time, seat and provider). */
  holdId?: string | null;
};

export type TransitionCommand = {
  bookingId: string;
  status?: BookingStatus;
  cancellationReason?: string | null;
  notes?: string | null;
  /** From `If-Match`: refuse with precondition_failed unless the booking is at one of these versions. */
  expectedVersions?: number[];
  /**
   * The request's `Idempotency-Key` (cancel): a change this calendar already made under the key
   * is answered again, not refused as a transition from the status it led to.
   */
  idempotency?: { key: string; requestHash: string };
};

/** A move of a booking to a new time (and, on a service with providers, maybe another provider). */
export type RescheduleCommand = {
  bookingId: string;
  startTime: string;
  endTime: string;
  /** The provider asked for; absent = the booking's own. */
  providerId?: string | null;
  service: ServiceSnapshot;
  providers?: ProviderSnapshot[];
  expectedVersions?: number[];
  idempotency?: { key: string; requestHash: string };
};

/** Why the calendar refused; the route maps each to an HTTP problem. */
export type CalendarRefusal =
  | { code: "validation_failed"; reason: string; field: "startTime" | "endTime" | "providerId"; detail: string }
  | { code: "slot_unavailable"; reason: "outside_working_hours" | "fully_booked" | ProviderReason; detail: string }
  | { code: "invalid_transition"; detail: string }
  | { code: "not_found"; detail: string }
  | { code: "idempotency_key_reused"; detail: string }
  | { code: "precondition_failed"; detail: string; version: number }
  /** Another object did not answer (reset, overloaded): nothing is held; the client may retry. */
  | { code: "unavailable"; detail: string }
  | { code: "hold_expired"; detail: string }
  /** The command was decided against an older version of the service than the calendar knows. */
  | { code: "service_changed"; detail: string };

export type CalendarResult =
  | { ok: true; booking: Booking; version: number; replayed: boolean }
  | { ok: false; refusal: CalendarRefusal };

/** One slot of the live calendar. */
export type CalendarSlot = {
  startTime: string;
  endTime: string;
  capacity: number;
  booked: number;
  /** Seats kept by live holds. */
  held: number;
  remaining: number;
  bookable: boolean;
};

/** Live counters of a service's calendar. */
export type CalendarCounters = Record<
  "active" | "pending" | "confirmed" | "cancelled" | "completed" | "noShow",
  number
>;

/** What the calendar holds, for reconciliation with D1. */
export type CalendarSnapshot = {
  bookings: { id: string; status: BookingStatus; version: number }[];
  outbox: string[];
  /** Outbox entries waiting longer than reconciliation's bound (60 s). */
  stuckInOutbox: string[];
  counters: CalendarCounters;
  /** Provider claims released here but not yet confirmed by the provider calendar. */
  releases?: string[];
  /** The holds this calendar has a record of, live or ended. */
  holds?: { id: string; live: boolean; expiresAt: string }[];
};

/** The Durable Object's name for a business's service. */
export const calendarName = (businessId: string, serviceId: string) => `${businessId}:${serviceId}`;
