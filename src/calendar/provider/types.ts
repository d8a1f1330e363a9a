/** The typed contract of the ProviderCalendar Durable Object. All instants are epoch milliseconds. */
import type { DateOverride } from "../../domain/schedule";
import type { WorkingHours } from "../overrides";
import type { ProviderReason } from "./reasons";

/** A provider's settings as its calendar needs them; `version` only grows (bumped by every PATCH). */
export type ProviderSnapshot = WorkingHours & {
  id: string;
  businessId: string;
  version: number;
  active: boolean;
  dateOverrides: DateOverride[];
};

/**
 * A claim on a provider's time: a booking (no `expiresAt`) or a hold (expires by itself).
 * `[blockedStart, blockedEnd)` is the appointment widened by the service's buffers.
 */
export type ClaimCommand = {
  /** A booking id or a hold id; the claim is idempotent by it. */
  claimId: string;
  serviceId: string;
  start: number;
  end: number;
  blockedStart: number;
  blockedEnd: number;
  /** Seats of one session of this service: claims of the same service and start share up to this many. */
  capacity: number;
  expiresAt?: number | null;
  /**
   * A claim of the same booking this one may overlap: the booking's current time while it is
   * being moved here. Not counted against the new claim; released by the caller once the move commits.
   */
  alongside?: string | null;
  /** The caller's copy of the provider; the calendar keeps whichever of its own and this is newer. */
  provider: ProviderSnapshot;
};

/** What `claim` answers; `replayed` when the same claim was already held with the same span. */
export type ClaimResult =
  | { ok: true; replayed: boolean; moved: boolean }
  | { ok: false; reason: Extract<ProviderReason, "provider_unavailable" | "provider_busy">; detail: string };

/** A claim as the calendar holds it. */
export type ProviderClaim = {
  claimId: string;
  serviceId: string;
  start: number;
  end: number;
  blockedStart: number;
  blockedEnd: number;
  capacity: number;
  expiresAt: number | null;
  createdAt: number;
};

/** What the calendar holds, for reconciliation: its settings and its live claims by start. */
export type ProviderCalendarSnapshot = { provider: ProviderSnapshot | null; claims: ProviderClaim[] };

/** The Durable Object's name for a business's provider. */
export const providerCalendarName = (businessId: string, providerId: string) => `${businessId}:${providerId}`;
