/**
 * The claim protocol's vocabulary (docs/consistency.md, "The claim protocol"). A booking, a
 * hold or a move may need other calendars besides its service's seats — a person's time, a
 * room's units — and gets each of them by a claim, idempotent by its id, that the other calendar
 * decides on its own. All instants are epoch milliseconds.
 */
import type { BookingRecord } from "../types/booking";
import type { ServiceLimitSettings } from "../types/limits";
import type { DateOverride, WeeklySchedule, WorkingHours } from "../types/schedule";
import type { ServiceRules } from "./rules/service-rules";

/**
 * The calendars a booking can claim time in: a person's, a resource's, and another service's
 * seats (a segment of a visit, decided by that service's own calendar).
 */
export type ClaimedKind = "provider" | "resource" | "service";

/** A claim as the entry calendar knows it: which calendar holds it, and its id there. */
export type ClaimRef = { calendar: ClaimedKind; id: string; claimId: string };

/** What every claimed calendar keeps of its owner; `version` only grows (bumped by every PATCH). */
export type ClaimedSettings = {
  id: string;
  businessId: string;
  version: number;
  active: boolean;
};

/**
 * A person's settings as their calendar needs them; `limits.perDay`: their claims of every
 * service starting on one local day in their zone (absent or null: no limit).
 */
export type ProviderSnapshot = ClaimedSettings &
  WorkingHours & { dateOverrides: DateOverride[]; limits?: { perDay?: number | null } };

/**
 * A resource's settings (a room, a chair, a machine): `quantity` identical units; open whenever
 * a service using it is, unless it has hours of its own.
 */
export type ResourceSnapshot = ClaimedSettings & {
  quantity: number;
  timezone: string;
  weeklySchedule: WeeklySchedule | null;
  dateOverrides: DateOverride[];
};

/** The settings of any claimed calendar. */
export type AnySnapshot = ProviderSnapshot | ResourceSnapshot;

/**
 * A claim on a calendar's time for one booking (no `expiresAt`) or hold (expires by itself).
 * `[blockedStart, blockedEnd)` is the appointment widened by the service's buffers.
 */
export type ClaimSpan = {
  /** A booking id, a hold id or a move's attempt id; the claim is idempotent by it. */
  claimId: string;
  serviceId: string;
  /**
   * Claims of one session share the calendar: further seats of a group session share the person
   * (up to `capacity`) and the room's unit.
   */
  session: string;
  start: number;
  end: number;
  blockedStart: number;
  blockedEnd: number;
  /** Seats of one session of this service. */
  capacity: number;
  expiresAt?: number | null;
  /**
   * Claims of the same booking (or visit) this one may overlap: its current time while it is
   * being moved, or the earlier segments of a visit done by the same person. Not counted against
   * the new claim.
   */
  alongside?: string | readonly string[] | null;
  /**
   * The claim this one replaces once the booking commits (a move's current claim here): not
   * counted against the person's daily limit beside it. A visit's other segments are not.
   */
  replaces?: string | null;
  /**
   * The booking this claim is for, when its id does not say (a hold's claim kept for the booking
   * made from it): the person's calendar writes the booking's event under this id.
   */
  bookingId?: string;
};

/** A claim and the caller's copy of the owner's settings (the calendar keeps the newer). */
export type ClaimCommand<S extends ClaimedSettings = ClaimedSettings> = ClaimSpan & { settings: S };

/** Why a claimed calendar refuses: the `reason` of a 409 `slot_unavailable`. */
export type ClaimReason =
  | "provider_unavailable"
  | "provider_busy"
  | "resource_unavailable"
  /** A service's seats (a visit's segment): its own rules. */
  | "outside_working_hours"
  | "fully_booked"
  /** A booking limit of the person (per day) or of the service (rules/limits.ts). */
  | "limit_reached";

/**
 * What `claim` answers; `replayed` when the same claim was already held with the same span.
 * `onlyWith` on a refusal: the only staffing this calendar could still grant the time to now —
 * the people of a session holding a unit then (ids sorted, joined by commas) — so any other
 * people are refused alike and need not be tried; empty: nobody (a room closed, inactive, or full
 * with other sessions). Absent: other people may be granted it (a person's own refusal).
 */
export type ClaimResult =
  | { ok: true; replayed: boolean }
  | { ok: false; reason: ClaimReason; detail: string; onlyWith?: string[] };

/** A refusal of a claimed calendar. */
export type ClaimRefusal = Extract<ClaimResult, { ok: false }>;

/**
 * What `claimEach` answers for several claims on one calendar, decided in one transaction:
 * every one granted, or none of them written and each refusal with the index of its claim.
 */
export type ClaimsResult = { ok: true } | { ok: false; refused: (ClaimRefusal & { index: number })[] };

/** A live claim that overlaps the one being decided: which session it belongs to. */
export type OverlappingClaim = { serviceId: string; start: number; session: string };

/** A claim as a claimed calendar holds it. */
export type HeldClaim = Omit<ClaimSpan, "alongside" | "expiresAt"> & { expiresAt: number | null; createdAt: number };

/** `[from, to)` in epoch milliseconds: a range a calendar is read over. */
export type Range = { from: number; to: number };

/** What a claimed calendar holds, for reconciliation: its settings and its live claims by start. */
export type ClaimedSnapshot<S extends ClaimedSettings = ClaimedSettings> = { settings: S | null; claims: HeldClaim[] };

/** The service as a seat claim is decided against (the calendar's `ServiceSnapshot`). */
export type SeatService = ServiceRules &
  ServiceLimitSettings & { id: string; businessId: string; version: number; reminders?: number[] };

/**
 * A claim on another service's seat: the booking it will become (built by the entry), the
 * person whose session it takes (null: none, or a team), the claims that booking holds in other
 * calendars (released by this calendar once the booking is cancelled), and whether it must sit on
 * the service's slot grid (a visit's first segment) or only inside working hours.
 */
export type SeatCommand = {
  claimId: string;
  record: BookingRecord;
  service: SeatService;
  providerId: string | null;
  claims: ClaimRef[];
  onGrid: boolean;
  /** Earlier segments of the same visit in this calendar: not counted against this seat. */
  alongside: string[];
};

/** A claim on a person's or a resource's time, with the command to send. */
export type TimeNeed =
  | (ClaimRef & { calendar: "provider"; command: ClaimCommand<ProviderSnapshot> })
  | (ClaimRef & { calendar: "resource"; command: ClaimCommand<ResourceSnapshot> });

/** One claim the entry needs, with the command to send. */
export type ClaimNeed = TimeNeed | (ClaimRef & { calendar: "service"; command: SeatCommand });

/**
 * The session a booking's seat belongs to in a claimed calendar: a person's group session is
 * the service at a start; a room's unit is shared by one session of the same people.
 */
export function sessionOf(kind: ClaimedKind, serviceId: string, start: number, providers: readonly string[]): string {
  const base = `${serviceId}@${start}`;
  return kind === "provider" ? base : `${base}#${[...providers].sort().join(",")}`;
}

/** The global order claims are made in, so two bookings needing the same calendars never both lose. */
export const claimOrder = (a: ClaimRef, b: ClaimRef) =>
  a.calendar === b.calendar ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.calendar < b.calendar ? -1 : 1;
