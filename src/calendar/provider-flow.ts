/**
 * The asynchronous halves of what the service calendar does with a provider's calendar: book,
 * move and hold. Each is a claim RPC between two of the calendar's own transactions (the steps
 * are in provider-booking.ts, reschedule.ts and hold-steps.ts).
 */

import { type HoldCommand, type HoldResult, type HoldStep, placeHold, settleHoldClaim } from "./hold-steps";
import { providerCalendarOf } from "./provider/client";
import type { ClaimResult, ProviderSnapshot } from "./provider/types";
import {
  abandonTentative,
  confirmTentative,
  nextCandidate,
  type ProviderStep,
  reserveTentative,
} from "./provider-booking";
import { beginMove, dropMove, finishMove, moveCandidates, nextMoveCandidate } from "./reschedule";
import type { CalendarTables } from "./tables";
import type { CalendarResult, CreateBookingCommand, RescheduleCommand, ServiceSnapshot } from "./types";
import { addDays, instantOf, localDateOf } from "./zoned";

/** What the flow needs of its calendar object. */
export type ProviderFlowDeps = {
  storage: DurableObjectStorage;
  env: Env;
  tables: CalendarTables;
  /** Writes committed changes to D1 (group commit). */
  afterCommit: () => Promise<void>;
  /** Sends owed provider releases (and hold confirmations). */
  sendReleases: () => Promise<void>;
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
      await deps.sendReleases();
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

/**
 * Moves a booking (reschedule.ts); with providers, after a person's calendar claims the new
 * time — the next candidate is tried when one refuses, as for a new booking.
 */
export async function moveBooking(deps: ProviderFlowDeps, command: RescheduleCommand): Promise<CalendarResult> {
  const { storage, env, tables } = deps;
  const current = tables.reservations.find(command.bookingId);
  // Only a booking made before its service had providers, moved without a providerId, is assigned one.
  const assigns = current && !current.providerId && !command.providerId && (command.providers?.length ?? 0) > 0;
  const preferred = assigns
    ? await preferenceOrder(env, command.service, command.providers, undefined, command.startTime)
    : [];
  const candidates = current ? (moveCandidates(command, current, preferred) ?? []) : [];
  let step = storage.transactionSync(() => beginMove(tables, command, preferred, Date.now()));
  while (step.kind === "claim") {
    const current = step;
    let answer: ClaimResult;
    try {
      answer = await providerCalendarOf(env, command.service.businessId, current.providerId).claim(current.claim);
    } catch {
      storage.transactionSync(() => dropMove(tables, current, false, Date.now()));
      await deps.sendReleases();
      const detail = "The provider's calendar did not answer; the booking is unchanged. Retry.";
      return { ok: false, refusal: { code: "unavailable", detail } };
    }
    if (answer.ok) {
      const result = storage.transactionSync(() => finishMove(tables, command, current, Date.now()));
      await deps.sendReleases();
      if (result.ok) await deps.afterCommit();
      return result;
    }
    step = storage.transactionSync(() => nextMoveCandidate(tables, command, current, candidates, answer, Date.now()));
  }
  if (step.result.ok && !step.result.replayed) await deps.afterCommit();
  await deps.sendReleases();
  return step.result;
}

/** Places a hold (hold-steps.ts); with providers, after the person's calendar claims the time. */
export async function holdSeat(deps: ProviderFlowDeps, command: HoldCommand): Promise<HoldResult> {
  const { storage, env, tables } = deps;
  const { service, providers, providerId, startTime } = command;
  const order = await preferenceOrder(env, service, providers, providerId, startTime);
  let step: HoldStep = storage.transactionSync(() => placeHold(tables, command, order, Date.now()));
  while (step.kind === "claim") {
    const current = step;
    const answer = await providerCalendarOf(env, service.businessId, current.providerId)
      .claim(current.claim)
      .catch(() => "no_answer" as const);
    step = storage.transactionSync(() => settleHoldClaim(tables, command, current, answer, order, Date.now()));
  }
  await deps.sendReleases();
  return step.result;
}
