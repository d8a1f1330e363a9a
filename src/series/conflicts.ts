/**
 * Which occurrences of a series cannot be booked, and why. The timing rules (notice, horizon)
 * are checked for every occurrence up front — they cost no I/O. The slots are read from the live
 * slot calendar (the service's seats, its people and resources, in parallel) only once the
 * calendar has refused the series: a preview that lets the refusal list every conflicting
 * occurrence, not just the first, without costing a series that books cleanly twelve reads.
 */
import {
  checkTiming,
  type ProviderSnapshot,
  type ResourceSnapshot,
  type ServiceSnapshot,
  slotCalendar,
} from "../calendar";

/** An occurrence: its `[start, end)` in epoch milliseconds. */
export type Occurrence = { start: number; end: number };

/** An occurrence that cannot be booked, and why (a `slot_unavailable` reason, or a timing one). */
export type Conflict = Occurrence & { reason: string };

/** Who and what a series' occurrences need: the person asked for, if any. */
export type Staffing = { providers: ProviderSnapshot[]; resources: ResourceSnapshot[]; providerId?: string };

/** Calendars read at once. */
const PARALLEL = 8;

/** The occurrences that break a timing rule of the service (notice, horizon), in order. */
export function timingConflicts(service: ServiceSnapshot, occurrences: Occurrence[], now: number): Conflict[] {
  return occurrences.flatMap((o) => {
    const timing = checkTiming(service, o.start, o.end, now);
    return timing ? [{ ...o, reason: timing.reason }] : [];
  });
}

/** The occurrences whose slot the live slot calendar shows as not bookable, and why, in order. */
export async function slotConflicts(
  env: Env,
  service: ServiceSnapshot,
  staffing: Staffing,
  occurrences: Occurrence[],
): Promise<Conflict[]> {
  // A team's occurrence needs every person; otherwise the one asked for, or anyone.
  const people =
    staffing.providerId && service.providerMode !== "all"
      ? staffing.providers.filter((p) => p.id === staffing.providerId)
      : staffing.providers;
  const reasons: (string | null)[] = [];
  for (let i = 0; i < occurrences.length; i += PARALLEL) {
    const chunk = occurrences.slice(i, i + PARALLEL);
    reasons.push(
      ...(await Promise.all(
        chunk.map(async ({ start }) => {
          const slots = await slotCalendar(env, service, start, start + 1, {
            people: people.length > 0 ? people : undefined,
            resources: staffing.resources,
          });
          const slot = slots.find((s) => Date.parse(s.startTime) === start);
          if (!slot) return "outside_working_hours";
          if (slot.bookable) return null;
          if (slot.reason) return slot.reason;
          if (slot.remaining === 0) return "fully_booked";
          if (people.length > 0 && (slot.providers ?? []).length === 0) {
            return staffing.providerId ? "provider_busy" : "no_provider_available";
          }
          return "resource_unavailable";
        }),
      )),
    );
  }
  return occurrences.flatMap((o, i) => (reasons[i] ? [{ ...o, reason: reasons[i] as string }] : []));
}
