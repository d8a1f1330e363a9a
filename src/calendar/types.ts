/** The typed contract between the Worker and the ServiceCalendar Durable Object. */

import type { Actor } from "../types/actor";
import type { Booking, BookingRecord, BookingStatus } from "../types/booking";
import type { Hold } from "../types/hold";
import type { ServiceLimitSettings } from "../types/limits";
import type { Answers } from "../types/questions";
import type { WaitlistEntry } from "../types/waitlist";
import type { ClaimReason, ProviderSnapshot, ResourceSnapshot } from "./claim-types";
import type { PolicyRefusal } from "./rules/policy";
import type { ServiceRules } from "./rules/service-rules";

/** A request's `Idempotency-Key` and the fingerprint of its request (service/tables/idempotency-records.ts). */
export type IdempotencyKey = { key: string; requestHash: string };

/** The service as the calendar needs it, sent with every call so edits apply at once. */
export type ServiceSnapshot = ServiceRules & {
  id: string;
  businessId: string;
  requiresConfirmation: boolean;
  /** With providers: `one` of them performs each booking (default), or `all` of them together. */
  providerMode?: "one" | "all";
  /** The service's version in D1 when the Worker read it (service/tables/service-version.ts). */
  version: number;
  /** Minutes before a booking's start at which a `booking.reminder` is sent (service/tables/reminders.ts). */
  reminders?: number[];
} & ServiceLimitSettings;

/**
 * Who may staff a booking: the service's providers (empty or absent: a service without providers;
 * with them, the booking claims one person's time, or everyone's for a team), the provider the
 * client asked for (absent: the calendar assigns one, or keeps a moved booking's own), and the
 * resources every booking of the service takes a unit of.
 */
export type AssigneeRequest = {
  providers?: ProviderSnapshot[];
  providerId?: string | null;
  resources?: ResourceSnapshot[];
};

/** The customer's side of a booking request: who, their notes and their answers. */
export type BookingDraft = Pick<
  BookingRecord,
  "customerName" | "customerEmail" | "customerPhone" | "notes" | "answers"
>;

/**
 * A hold of this calendar to book (`POST /bookings` with `holdId`), and the fields the request
 * sent beside it: each must agree with the hold, which the calendar checks itself (one call).
 */
export type HoldToBook = {
  id: string;
  sent: { serviceId?: string; startTime?: string; endTime?: string; providerId?: string };
};

type BookingCommandBase = AssigneeRequest & {
  service: ServiceSnapshot;
  /** The customer's id if D1 already knows the e-mail; otherwise the calendar makes one. */
  customerId: string | null;
  idempotency?: IdempotencyKey;
  /** The operator import: the customer is not sent a confirmation. */
  imported?: boolean;
  /** Who asks, for the audit (absent: the system); a customer's id is set to the booking's. */
  actor?: Actor;
};

/** A new booking of a slot: its times, checked by every rule of the service. */
export type SlotBookingCommand = BookingCommandBase & {
  booking: BookingDraft & Pick<BookingRecord, "startTime" | "endTime">;
  hold?: undefined;
};

/** A live hold turned into the booking: the hold's time, seat and provider. */
export type HoldBookingCommand = BookingCommandBase & { booking: BookingDraft; hold: HoldToBook };

export type CreateBookingCommand = SlotBookingCommand | HoldBookingCommand;

/** What makes a change conditional or repeatable: `If-Match` versions and the `Idempotency-Key`. */
type Preconditions = {
  /** From `If-Match`: refuse with precondition_failed unless the booking is at one of these versions. */
  expectedVersions?: number[];
  /**
   * The request's `Idempotency-Key`: a change this calendar already made under the key is answered
   * again (a cancel is not refused as a transition from the status it led to).
   */
  idempotency?: IdempotencyKey;
  /**
   * Set when a customer's manage link asks: refused with `policy_window` once the booking starts
   * in less than this many minutes (rules/policy.ts). Absent for calls with an API key.
   */
  customerNoticeMinutes?: number;
  /** Who asks, for the audit (absent: the system); a customer's id is set to the booking's. */
  actor?: Actor;
};

export type StatusChangeCommand = Preconditions & {
  bookingId: string;
  status?: BookingStatus;
  cancellationReason?: string | null;
  notes?: string | null;
};

/** A move of a booking to a new time (and, on a service with providers, maybe another provider). */
export type RescheduleCommand = AssigneeRequest &
  Preconditions & {
    bookingId: string;
    startTime: string;
    endTime: string;
    service: ServiceSnapshot;
    /**
     * Set when a customer's manage link asks: a booking whose person no longer performs the
     * service goes to one of its current providers who is free, chosen as for a new booking,
     * instead of being refused with `provider_left_service` (a customer cannot name another).
     */
    reassignIfLeft?: boolean;
  };

/** A hold request: the seat (and people) kept for `ttlMs` from the moment the calendar places it. */
export type HoldCommand = AssigneeRequest & {
  holdId: string;
  service: ServiceSnapshot;
  startTime: string;
  endTime: string;
  ttlMs: number;
  /** A booking page's visitor places it: page holds keep at most a share of their day (live-slots.ts). */
  page?: boolean;
};

export type HoldResult = { ok: true; hold: Hold } | { ok: false; refusal: CalendarRefusal };

/** What a hold for the waitlist is placed with: the newest service and staffing the calendar was sent. */
export type OfferContext = {
  service: ServiceSnapshot;
  providers: ProviderSnapshot[];
  resources: ResourceSnapshot[];
  /** False once the service is inactive: nothing is offered (a hold of it could not be placed). */
  active?: boolean;
};

/** A customer joining a slot's waitlist: the entry (WAITING), and the service and staffing its offers will be held with. */
export type JoinWaitlistCommand = AssigneeRequest & {
  service: ServiceSnapshot;
  entry: WaitlistEntry;
  apiKeyId: string;
};

/** One segment of a visit: a service, who may take it, and the answers to its questions. */
export type VisitSegment = AssigneeRequest & { service: ServiceSnapshot; answers?: Answers };

/**
 * A visit: segments back to back from `startTime`, each a booking of its own service; the first
 * segment's service calendar is the entry that claims every other calendar (service/flows/create-visit.ts).
 */
export type VisitCommand = {
  /** The visit's id (`apt_…`), or a series' (`ser_…`) with `series` set. */
  appointmentId: string;
  startTime: string;
  segments: VisitSegment[];
  /**
   * A series: each segment is an occurrence at its own time (epoch ms) and must sit on its
   * service's slot grid; its bookings carry `seriesId` instead of `appointmentId`.
   */
  series?: { times: { start: number; end: number }[] };
  customer: Pick<BookingRecord, "customerName" | "customerEmail" | "customerPhone" | "notes">;
  customerId: string | null;
  idempotency?: IdempotencyKey;
  /** Who asks, for the audit of the segments booked in this calendar (absent: the system). */
  actor?: Actor;
};

/**
 * A visit's answer: every segment's booking, or why not (with the segment that refused, if one
 * did). `unstaffed`: every segment the calendars left nobody to staff, with why (the first is
 * `segment`) — a refused series lists those occurrences without reading the slot calendar.
 */
export type VisitResult =
  | { ok: true; appointmentId: string; bookings: Booking[]; replayed: boolean }
  | { ok: false; refusal: CalendarRefusal; segment?: number; unassignable?: { segment: number; reason: string }[] };

/**
 * Why a slot is unavailable: the service's own rules (`outside_working_hours`, `fully_booked`),
 * a claimed calendar's (`provider_unavailable`, `provider_busy`, `resource_unavailable`), no
 * provider could be assigned (`no_provider_available`), or a booking limit (`limit_reached`).
 */
export type SlotReason = "outside_working_hours" | "fully_booked" | ClaimReason | "no_provider_available";

/** The reasons, for the documentation of a 409 `slot_unavailable`. */
export const slotReasons: readonly SlotReason[] = [
  "outside_working_hours",
  "fully_booked",
  "provider_unavailable",
  "provider_busy",
  "no_provider_available",
  "resource_unavailable",
  "limit_reached",
];

/** Why the calendar refused; the route maps each to an HTTP problem. */
export type CalendarRefusal =
  | { code: "validation_failed"; reason: string; field: "startTime" | "endTime" | "providerId"; detail: string }
  | { code: "slot_unavailable"; reason: SlotReason; detail: string }
  | { code: "invalid_transition"; detail: string }
  | { code: "not_found"; detail: string }
  | { code: "idempotency_key_reused"; detail: string }
  | { code: "precondition_failed"; detail: string; version: number }
  /** Another object did not answer (reset, overloaded): nothing is held; the client may retry. */
  | { code: "unavailable"; detail: string }
  | { code: "hold_expired"; detail: string }
  /** `holdId` names no hold of this calendar. */
  | { code: "no_such_hold"; detail: string }
  /** Fields sent beside `holdId` that differ from the hold's, each with its path. */
  | { code: "hold_mismatch"; detail: string; errors: { path: string; message: string }[] }
  /** The command was decided against an older version of the service than the calendar knows. */
  | { code: "service_changed"; detail: string }
  /** A customer's manage link asked inside the service's policy window. */
  | PolicyRefusal
  /** The slot's (or the service's) waitlist has as many entries as it may. */
  | { code: "waitlist_full"; detail: string }
  /** Booking pages' live holds already keep the share of the day's free times they may. */
  | { code: "hold_limit_reached"; reason: "day_share"; detail: string };

export type CalendarResult =
  | { ok: true; booking: Booking; version: number; replayed: boolean }
  | { ok: false; refusal: CalendarRefusal };

export type { ServiceLimitSettings } from "../types/limits";
export type { CalendarSlot } from "./rules/slots";

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
  /** Claims whose release (or confirmation) is still owed to another calendar. */
  releases?: string[];
  /** The holds this calendar has a record of, live or ended. */
  holds?: { id: string; live: boolean; expiresAt: string }[];
};
