/**
 * Who a booking may go to, in order: the provider asked for, or else the service's active
 * providers with the fewest live claims on the booking's local day (the service's time zone),
 * ties by id. The load is only a preference: each claim is still decided by the person's calendar.
 */

import type { ProviderSnapshot } from "../claim-types";
import { addDays, instantOf, localDateOf } from "../rules/zoned";
import { providerCalendarOf } from "../stubs";
import type { ServiceSnapshot } from "../types";

/** One way to staff a booking: the person who performs it (null: nobody), and the people claimed for it. */
export type Candidate = { providerId: string | null; people: ProviderSnapshot[] };

/** The candidates of a booking, in the order they are tried. */
export async function candidatesFor(
  env: Env,
  service: ServiceSnapshot,
  providers: ProviderSnapshot[] | undefined,
  providerId: string | null | undefined,
  startTime: string,
): Promise<Candidate[]> {
  if (!providers || providers.length === 0) return [{ providerId: null, people: [] }];
  const order = await preferenceOrder(env, service, providers, providerId, startTime);
  return order.flatMap((id) => {
    const person = providers.find((p) => p.id === id);
    return person ? [{ providerId: id, people: [person] }] : [];
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
  if (providerId) return [providerId];
  const candidates = providers.filter((p) => p.active);
  if (candidates.length < 2) return candidates.map((p) => p.id);
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
