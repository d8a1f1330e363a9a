/**
 * The asynchronous flows of the service calendar: a booking, a move and a hold, each one or more
 * of its transactions with the claims of other calendars between them (claims/flow.ts).
 */
import { runClaims } from "../claims/flow";
import { type Candidate, candidatesFor, oneEach, preferenceOrder } from "../claims/preference";
import type { CalendarResult, CreateBookingCommand, HoldCommand, HoldResult, RescheduleCommand } from "../types";
import { abandonCreate, beginCreate, confirmCreate, retryCreate } from "./create";
import { abandonHold, beginHold, confirmHold, consumeHold, retryHold } from "./hold";
import { abandonMove, beginMove, finishMove, retryMove } from "./move";
import type { CalendarTables } from "./tables";

/** What a flow needs of its calendar object. */
export type FlowDeps = { storage: DurableObjectStorage; env: Env; tables: CalendarTables };

/** A new booking (or a hold's), committed here; D1 is written by the caller or the alarm. */
export async function createFlow(deps: FlowDeps, command: CreateBookingCommand): Promise<CalendarResult> {
  const { storage, env, tables: t } = deps;
  if (command.holdId) {
    const { holdId } = command;
    return storage.transactionSync(() => consumeHold(t, { ...command, holdId }, Date.now()));
  }
  const { service, providerId, booking } = command;
  const candidates = await candidatesFor(env, service, command, providerId, booking.startTime);
  return runClaims(
    storage,
    env,
    storage.transactionSync(() => beginCreate(t, command, candidates, Date.now())),
    {
      confirm: (attempt) => confirmCreate(t, command, attempt, Date.now()),
      refused: (attempt, refusal) => retryCreate(t, command, candidates, attempt, refusal, Date.now()),
      unanswered: (attempt, claims) => abandonCreate(t, attempt, claims, Date.now()),
    },
  );
}

/** A move to a new time (and maybe person). */
export async function moveFlow(deps: FlowDeps, command: RescheduleCommand): Promise<CalendarResult> {
  const { storage, env, tables: t } = deps;
  const current = t.reservations.find(command.bookingId);
  // Only a booking made before its service had providers, moved without a providerId, is assigned one.
  const providers = command.providers ?? [];
  const assigns = current && !current.providerId && !command.providerId && providers.length > 0;
  const preferred: Candidate[] = assigns
    ? oneEach(await preferenceOrder(env, command.service, providers, undefined, command.startTime), command)
    : [];
  return runClaims(
    storage,
    env,
    storage.transactionSync(() => beginMove(t, command, preferred, Date.now())),
    {
      confirm: (attempt) => finishMove(t, command, attempt, Date.now()),
      refused: (attempt, refusal) => retryMove(t, command, preferred, attempt, refusal, Date.now()),
      unanswered: (attempt, claims) => abandonMove(t, attempt, claims, Date.now()),
    },
  );
}

/** A hold: the seat (and people) kept until its expiry. */
export async function holdFlow(deps: FlowDeps, command: HoldCommand): Promise<HoldResult> {
  const { storage, env, tables: t } = deps;
  const { service, providerId, startTime } = command;
  const candidates = await candidatesFor(env, service, command, providerId, startTime);
  return runClaims(
    storage,
    env,
    storage.transactionSync(() => beginHold(t, command, candidates, Date.now())),
    {
      confirm: (attempt) => confirmHold(t, attempt, Date.now()),
      refused: (attempt, refusal) => retryHold(t, command, candidates, attempt, refusal, Date.now()),
      unanswered: (attempt, claims) => abandonHold(t, attempt, claims, Date.now()),
    },
  );
}
