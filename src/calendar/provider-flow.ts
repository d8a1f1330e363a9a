/**
 * The asynchronous half of a booking with a provider: preference order, then the claim RPC
 * between the calendar's two transactions (see provider-booking.ts for the steps).
 */
import { providerCalendarOf } from "./provider/client";
import type { ClaimResult, ProviderSnapshot } from "./provider/types";
import {
  abandonTentative,
  confirmTentative,
  nextCandidate,
  type ProviderStep,
  reserveTentative,
} from "./provider-booking";
import type { CalendarTables } from "./tables";
import type { CalendarResult, CreateBookingCommand, ServiceSnapshot } from "./types";
import { addDays, instantOf, localDateOf } from "./zoned";

/** What the flow needs of its calendar object. */
export type ProviderFlowDeps = {
  storage: DurableObjectStorage;
  env: Env;
  tables: CalendarTables;
  /** Writes committed changes to D1 (group commit). */
  afterCommit: () => Promise<void>;
};

/** Books `command` on a service with providers: tentative row, claim, then confirm or refuse. */
export async function bookWithProvider(deps: ProviderFlowDeps, command: CreateBookingCommand): Promise<CalendarResult> {
  const { storage, env, tables } = deps;
  const businessId = command.service.businessId;
  const order = await preferenceOrder(
    env,
    command.service,
    command.providers,
    command.providerId,
    command.booking.startTime,
  );
  let step: ProviderStep = storage.transactionSync(() => reserveTentative(tables, command, order, Date.now()));
  while (step.kind === "claim") {
    const current = step;
    let answer: ClaimResult;
    try {
      answer = await providerCalendarOf(env, businessId, current.providerId).claim(current.claim);
    } catch {
      // Unknown outcome: give the row up and release whatever the claim may have taken.
      const result = storage.transactionSync(() => abandonTentative(tables, current, Date.now()));
      await tables.releases.send(env, Date.now());
      return result;
    }
    if (answer.ok) {
      const result = storage.transactionSync(() => confirmTentative(tables, command, current.bookingId, Date.now()));
      if (result.ok) await deps.afterCommit();
      return result;
    }
    step = storage.transactionSync(() => nextCandidate(tables, command, order, current, answer));
  }
  return step.result;
}

/**
 * The providers to try, in order: the one asked for, or else the active providers with the
 * fewest live claims on the booking's local day (the service's time zone), ties by id. The load
 * is only a preference: each claim is still decided by the provider's own calendar.
 */
export async function preferenceOrder(
  env: Env,
  service: ServiceSnapshot,
  providers: ProviderSnapshot[] | undefined,
  providerId: string | null | undefined,
  startTime: string,
): Promise<string[]> {
  if (providerId) return [providerId];
  const candidates = (providers ?? []).filter((p) => p.active);
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
