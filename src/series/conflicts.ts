/**
 * Which occurrences of a series cannot be booked as things stand, and why: each occurrence's
 * notice and horizon, then its slot as the live slot calendar shows it (the service's seats, its
 * people and resources), read in parallel. Only a preview — the calendar decides when the
 * series is booked — but it lets a refusal list every conflicting occurrence, not just the first.
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

/** Calendars read at once. */
const PARALLEL = 8;

/** The conflicts among `occurrences`, in order. */
export async function findConflicts(
  env: Env,
  service: ServiceSnapshot,
  staffing: { providers: ProviderSnapshot[]; resources: ResourceSnapshot[]; providerId?: string },
  occurrences: Occurrence[],
  now: number,
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
        chunk.map(async ({ start, end }) => {
          const timing = checkTiming(service, start, end, now);
          if (timing) return timing.reason;
          const slots = await slotCalendar(env, service, start, start + 1, {
            people: people.length > 0 ? people : undefined,
            resources: staffing.resources,
          });
          const slot = slots.find((s) => Date.parse(s.startTime) === start);
          if (!slot) return "outside_working_hours";
          if (slot.bookable) return null;
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
