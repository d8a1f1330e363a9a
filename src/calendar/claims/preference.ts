/**
 * Who a booking may go to, in order: the provider asked for, or else the service's active
 * providers with the fewest live claims on the booking's local day (the service's time zone),
 * ties by id — or, for a service that assigns `balanced`, by id, for its calendar to order
 * (service/steps/limits.ts). The order is only a preference: each claim is still decided by the
 * person's calendar.
 */

import type { ProviderSnapshot, Range, ResourceSnapshot } from "../claim-types";
import { addLocalDays, instantOf, localDateOf } from "../rules/zoned";
import { providerCalendarOf } from "../stubs";
import type { ServiceSnapshot } from "../types";

/**
 * One way to staff a booking: the person who performs it (null: nobody, or a team), the people
 * and the resources claimed for it.
 */
export type Candidate = { providerId: string | null; providers: ProviderSnapshot[]; resources: ResourceSnapshot[] };

/** What a service needs besides its seats: its providers (with how they work) and its resources. */
export type Assignees = { providers?: ProviderSnapshot[]; resources?: ResourceSnapshot[] };

/** The only candidate of a service without providers, or of a team (every provider together). */
export function fixedCandidate(service: ServiceSnapshot, staffing: Assignees): Candidate | undefined {
  const providers = staffing.providers ?? [];
  const resources = staffing.resources ?? [];
  if (providers.length === 0) return { providerId: null, providers: [], resources };
  if (service.providerMode === "all") return { providerId: null, providers, resources };
  return undefined;
}

/** The candidates of one provider each, in `order`. */
export function oneEach(order: string[], staffing: Assignees): Candidate[] {
  const resources = staffing.resources ?? [];
  return order.flatMap((id) =>
    (staffing.providers ?? [])
      .filter((p) => p.id === id)
      .map((provider) => ({ providerId: id, providers: [provider], resources })),
  );
}

/** A booking (or a visit's segment) to assign: its service and assignees, the provider asked for, its start. */
export type Ask = {
  service: ServiceSnapshot;
  staffing: Assignees;
  providerId: string | null | undefined;
  startTime: string;
};

/** The candidates of a booking, in the order they are tried. */
export async function candidatesFor(
  env: Env,
  service: ServiceSnapshot,
  staffing: Assignees,
  providerId: string | null | undefined,
  startTime: string,
): Promise<Candidate[]> {
  return (await candidatesForEach(env, [{ service, staffing, providerId, startTime }]))[0] as Candidate[];
}

/** The candidates of each ask (a visit's segments, a series' occurrences), in order. */
export async function candidatesForEach(env: Env, asks: readonly Ask[]): Promise<Candidate[][]> {
  const fixed = asks.map(({ service, staffing }) => fixedCandidate(service, staffing));
  const orders = await preferenceOrders(
    env,
    asks.map((ask, i) => ({ ...ask, providers: fixed[i] ? [] : (ask.staffing.providers ?? []) })),
  );
  return asks.map((ask, i) => {
    const one = fixed[i];
    return one ? [one] : oneEach(orders[i] ?? [], ask.staffing);
  });
}

/** The provider ids to try, in order (see the module comment). */
export async function preferenceOrder(
  env: Env,
  service: ServiceSnapshot,
  providers: ProviderSnapshot[],
  providerId: string | null | undefined,
  startTime: string,
): Promise<string[]> {
  return (await preferenceOrders(env, [{ service, providers, providerId, startTime }]))[0] as string[];
}

type OrderAsk = Pick<Ask, "service" | "providerId" | "startTime"> & { providers: ProviderSnapshot[] };

/**
 * The provider ids to try for each ask, in order. Each person's loads on every local day asked
 * for are read in one call (a series of 52 asks 50 people 50 calls, not 2,600); a calendar that
 * does not answer puts its person last.
 */
export async function preferenceOrders(env: Env, asks: readonly OrderAsk[]): Promise<string[][]> {
  const days = asks.map(({ service, providers, providerId, startTime }): Range | undefined => {
    // Balanced assignment is ordered in the service's calendar, with its counts: no loads to read.
    if (providerId || service.assignment === "balanced" || providers.filter((p) => p.active).length < 2)
      return undefined;
    const { timezone } = service;
    const day = localDateOf(Date.parse(startTime), timezone);
    return { from: instantOf(day, 0, timezone), to: instantOf(addLocalDays(day, 1), 0, timezone) };
  });
  const asked = new Map<string, { businessId: string; ranges: Map<number, Range> }>();
  for (const [i, ask] of asks.entries()) {
    const day = days[i];
    if (!day) continue;
    for (const provider of ask.providers.filter((p) => p.active)) {
      const entry = asked.get(provider.id) ?? { businessId: ask.service.businessId, ranges: new Map() };
      entry.ranges.set(day.from, day);
      asked.set(provider.id, entry);
    }
  }
  const loads = new Map<string, number>();
  await Promise.all(
    [...asked].map(async ([id, { businessId, ranges }]) => {
      const list = [...ranges.values()];
      const answer = await providerCalendarOf(env, businessId, id)
        .dayLoads(list)
        .catch(() => [] as number[]);
      for (const [j, range] of list.entries()) loads.set(`${id}@${range.from}`, answer[j] ?? Number.POSITIVE_INFINITY);
    }),
  );
  return asks.map(({ providers, providerId }, i) => {
    if (providerId) return [providerId];
    const candidates = providers.filter((p) => p.active);
    const day = days[i];
    if (!day) return candidates.map((p) => p.id);
    return candidates
      .map((p) => ({ id: p.id, load: loads.get(`${p.id}@${day.from}`) ?? Number.POSITIVE_INFINITY }))
      .sort((a, b) => a.load - b.load || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((c) => c.id);
  });
}
