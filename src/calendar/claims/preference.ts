/**
 * Who a booking may go to, in order: the provider asked for, or else the service's active
 * providers with the fewest live claims on the booking's local day (the service's time zone),
 * ties by id — or, for a service that assigns `balanced`, by id, for its calendar to order. The
 * order is only a preference: each claim is still decided by the person's calendar.
 */

import type { ProviderSnapshot, ResourceSnapshot } from "../claim-types";
import { addDays, instantOf, localDateOf } from "../rules/zoned";
import { providerCalendarOf } from "../stubs";
import type { ServiceSnapshot } from "../types";

/**
 * One way to staff a booking: the person who performs it (null: nobody, or a team), the people
 * and the resources claimed for it.
 */
export type Candidate = { providerId: string | null; people: ProviderSnapshot[]; resources: ResourceSnapshot[] };

/** What a service needs besides its seats: its providers (with how they work) and its resources. */
export type Staffing = { providers?: ProviderSnapshot[]; resources?: ResourceSnapshot[] };

/** The only candidate of a service without providers, or of a team (every provider together). */
export function fixedCandidate(service: ServiceSnapshot, staffing: Staffing): Candidate | undefined {
  const providers = staffing.providers ?? [];
  const resources = staffing.resources ?? [];
  if (providers.length === 0) return { providerId: null, people: [], resources };
  if (service.providerMode === "all") return { providerId: null, people: providers, resources };
  return undefined;
}

/** The candidates of one provider each, in `order`. */
export function oneEach(order: string[], staffing: Staffing): Candidate[] {
  const resources = staffing.resources ?? [];
  return order.flatMap((id) =>
    (staffing.providers ?? [])
      .filter((p) => p.id === id)
      .map((person) => ({ providerId: id, people: [person], resources })),
  );
}

/** The candidates of a booking, in the order they are tried. */
export async function candidatesFor(
  env: Env,
  service: ServiceSnapshot,
  staffing: Staffing,
  providerId: string | null | undefined,
  startTime: string,
): Promise<Candidate[]> {
  const fixed = fixedCandidate(service, staffing);
  if (fixed) return [fixed];
  const order = await preferenceOrder(env, service, staffing.providers ?? [], providerId, startTime);
  return oneEach(order, staffing);
}

/** The provider ids to try, in order (see the module comment). */
export async function preferenceOrder(
  env: Env,
  service: ServiceSnapshot,
  providers: ProviderSnapshot[],
  providerId: string | null | undefined,
  startTime: string,
): Promise<string[]> {
  if (providerId) return [providerId];
  const candidates = providers.filter((p) => p.active);
  // Balanced assignment orders them in the service's calendar, with its counts (service/limits.ts).
  if (candidates.length < 2 || service.assignment === "balanced") return candidates.map((p) => p.id).sort();
  const { timezone } = service;
  const day = localDateOf(Date.parse(startTime), timezone);
  const from = instantOf(day, 0, timezone);
  const to = instantOf(addDays(day, 1), 0, timezone);
  const loads = await Promise.all(
    candidates.map((p) =>
      providerCalendarOf(env, service.businessId, p.id)
        .dayLoad(from, to)
        .catch(() => Number.POSITIVE_INFINITY),
    ),
  );
  return candidates
    .map((p, i) => ({ id: p.id, load: loads[i] as number }))
    .sort((a, b) => a.load - b.load || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => c.id);
}
