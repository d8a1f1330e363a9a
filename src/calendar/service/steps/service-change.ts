/**
 * A configuration change that existing bookings could conflict with, proposed to the calendar
 * before the PATCH writes D1 (tables/service-version.ts): fewer seats per slot, or a service with
 * providers that stops having any (its seats were counted per person, now for the service).
 */

import { type SeatConflict, seatConflicts } from "../../rules/seat-conflicts";
import { moveRowId } from "../tables/reservations";
import { PROPOSAL_LEASE_MS } from "../tables/service-version";
import type { CalendarTables } from "../tables/tables";

/** The seats a service will offer from `version` on. */
export type ServiceChange = { version: number; capacity: number; withProviders: boolean };

/** Where existing bookings (or live holds) would be over the new seats. */
export type ChangeConflict = { providerId: string | null; at: string; bookingIds: string[] };

export type ProposalResult =
  | { ok: true }
  | { ok: false; reason: "changed_meanwhile" }
  | { ok: false; reason: "conflicts"; conflicts: ChangeConflict[] };

/** Checks `change` against the upcoming rows and, if they fit, holds older commands off until it is confirmed. */
export function proposeChange(tables: CalendarTables, change: ServiceChange, now: number): ProposalResult {
  if (change.version <= tables.serviceVersion.current(now)) return { ok: false, reason: "changed_meanwhile" };
  const conflicts = seatConflicts(tables.reservations.seats.upcoming(now), change.capacity, change.withProviders);
  if (conflicts.length > 0) return { ok: false, reason: "conflicts", conflicts: conflicts.map(describe) };
  tables.serviceVersion.propose(change.version, now + PROPOSAL_LEASE_MS);
  return { ok: true };
}

/** A conflict as the API shows it: booking ids (a booking being moved counts once), holds by their id. */
function describe(conflict: SeatConflict): ChangeConflict {
  const ids = conflict.rowIds.map((id) => (id.endsWith(moveRowId("")) ? id.slice(0, -moveRowId("").length) : id));
  return { providerId: conflict.providerId, at: new Date(conflict.at).toISOString(), bookingIds: [...new Set(ids)] };
}
