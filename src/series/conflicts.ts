/**
 * Which occurrences of a series cannot be booked, and why. The timing rules (notice, horizon)
 * are checked for every occurrence up front — they cost no I/O. The slots are read from the live
 * slot calendar (the service's seats, its people and resources, in parallel, each calendar once
 * for all occurrences) only once the calendar has refused the series: a preview that lets the
 * refusal list every conflicting occurrence, not just the first, without costing a series that
 * books cleanly any read.
 */
import { type ProviderSnapshot, type ResourceSnapshot, type ServiceSnapshot, slotsAt } from "../calendar";
import { checkTiming } from "../calendar/rules";

/** An occurrence: its `[start, end)` in epoch milliseconds. */
export type Occurrence = { start: number; end: number };

/** An occurrence that cannot be booked, and why (a `slot_unavailable` reason, or a timing one). */
export type Conflict = Occurrence & { reason: string };

/** Who and what a series' occurrences need: the person asked for, if any. */
export type SeriesAssignees = { providers: ProviderSnapshot[]; resources: ResourceSnapshot[]; providerId?: string };

/** The occurrences that break a timing rule of the service (notice, horizon), in order. */
export function timingConflicts(service: ServiceSnapshot, occurrences: Occurrence[], now: number): Conflict[] {
  return occurrences.flatMap((o) => {
    const timing = checkTiming(service, o.start, o.end, now);
    return timing ? [{ ...o, reason: timing.reason }] : [];
  });
}

/**
 * The occurrences whose slot the live slot calendar shows as not bookable, and why, in order.
 * Every occurrence is read in one call to each calendar (the service's, each person's, each
 * resource's): at most 1 + 50 + 5 calls, whatever the number of occurrences.
 */
export async function slotConflicts(
  env: Env,
  service: ServiceSnapshot,
  staffing: SeriesAssignees,
  occurrences: Occurrence[],
): Promise<Conflict[]> {
  // A team's occurrence needs every person; otherwise the one asked for, or anyone.
  const needed =
    staffing.providerId && service.providerMode !== "all"
      ? staffing.providers.filter((p) => p.id === staffing.providerId)
      : staffing.providers;
  const slots = await slotsAt(
    env,
    service,
    occurrences.map((o) => o.start),
    { providers: needed.length > 0 ? needed : undefined, resources: staffing.resources },
  );
  const reasons = slots.map((slot) => {
    if (!slot) return "outside_working_hours";
    if (slot.bookable) return null;
    if (slot.reason) return slot.reason;
    if (slot.remaining === 0) return "fully_booked";
    if (needed.length > 0 && (slot.providers ?? []).length === 0) {
      return staffing.providerId ? "provider_busy" : "no_provider_available";
    }
    return "resource_unavailable";
  });
  return occurrences.flatMap((o, i) => (reasons[i] ? [{ ...o, reason: reasons[i] as string }] : []));
}
