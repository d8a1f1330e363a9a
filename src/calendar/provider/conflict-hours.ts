/**
 * Conflicts a change of a person's hours makes (docs/staff-calendars.md, "Conflicts"): the change
 * goes through, and each booking still to come that the new hours no longer cover is marked —
 * `time_off` when the weekly hours alone would still cover it (a date override closed or cut the
 * day), else `outside_hours`. One check per upcoming booking, run in the transaction that stores
 * the new settings; a booking covered again clears.
 */

import type { ProviderSnapshot } from "../claim-types";
import { withinWorkingTime } from "../rules/service-rules";
import { type BookedSpan, type ConflictContext, type Found, iso, reconcileConflicts, upcoming } from "./conflicts";

/** What the person's hours say of `booked`: each booking they no longer cover, and why. */
export function hoursFound(provider: ProviderSnapshot, booked: readonly BookedSpan[]): Found {
  const found: Found = new Map();
  // An inactive person's bookings are the business's to move: not a change of hours.
  if (!provider.active) return found;
  const weekly = { ...provider, dateOverrides: [] };
  for (const b of booked) {
    if (found.has(b.bookingId) || withinWorkingTime(provider, b.start, b.end)) continue;
    const when = `${iso(b.start)} to ${iso(b.end)}`;
    found.set(
      b.bookingId,
      withinWorkingTime(weekly, b.start, b.end)
        ? { kind: "time_off", detail: `The provider is off on that date (a date override), ${when}.` }
        : { kind: "outside_hours", detail: `The provider's hours no longer cover ${when}.` },
    );
  }
  return found;
}

/** Finds the person's hours conflicts under `person`'s settings; in the caller's transaction. */
export function detectHours(context: ConflictContext, provider: ProviderSnapshot, now: number): void {
  const booked = upcoming(context.sql, now);
  reconcileConflicts(context, ["outside_hours", "time_off"], booked, hoursFound(provider, booked), now);
}
