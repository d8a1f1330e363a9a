/**
 * The asynchronous flows of the service calendar: a booking, a move and a hold, each one or more
 * of its transactions with the claims of other calendars between them (claims/flow.ts).
 */
import { runClaims } from "../claims/flow";
import { type Candidate, candidatesFor, candidatesForEach, oneEach, preferenceOrder } from "../claims/preference";
import type {
  CalendarResult,
  CreateBookingCommand,
  HoldCommand,
  HoldResult,
  RescheduleCommand,
  VisitCommand,
  VisitResult,
} from "../types";
import { creating } from "./create";
import { consumeHold, holding } from "./hold";
import { moving } from "./move";
import type { CalendarTables } from "./tables";
import { visitFlow, visiting } from "./visit";
import { remoteOrder } from "./visit-limits";
import { timesOf } from "./visit-plan";

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
  return runClaims(storage, env, creating, { tables: t, command, candidates });
}

/** A move to a new time (and maybe person). */
export async function moveFlow(deps: FlowDeps, command: RescheduleCommand): Promise<CalendarResult> {
  const { storage, env, tables: t } = deps;
  const current = t.reservations.find(command.bookingId);
  // Only a booking made before its service had providers, or (by a manage link) one whose person
  // left the service, moved without a providerId, is assigned one.
  const providers = command.providers ?? [];
  const left = (id: string) => command.reassignIfLeft === true && !providers.some((p) => p.id === id);
  const assigns =
    current && !command.providerId && providers.length > 0 && (!current.providerId || left(current.providerId));
  const preferred: Candidate[] = assigns
    ? oneEach(await preferenceOrder(env, command.service, providers, undefined, command.startTime), command)
    : [];
  return runClaims(storage, env, moving, { tables: t, command, preferred });
}

/** A hold: the seat (and people) kept until its expiry. */
export async function holdFlow(deps: FlowDeps, command: HoldCommand): Promise<HoldResult> {
  const { storage, env, tables: t } = deps;
  const { service, providerId, startTime } = command;
  const candidates = await candidatesFor(env, service, command, providerId, startTime);
  return runClaims(storage, env, holding, { tables: t, command, candidates });
}

/** A visit: every segment's people and resources, and the later segments' seats, claimed from here. */
export async function visitFlowOf(deps: FlowDeps, command: VisitCommand): Promise<VisitResult> {
  const { storage, env, tables: t } = deps;
  const times = timesOf(command);
  const candidates = await candidatesForEach(
    env,
    command.segments.map((segment, i) => ({
      service: segment.service,
      staffing: segment,
      providerId: segment.providerId,
      startTime: new Date(times[i]?.start ?? 0).toISOString(),
    })),
  );
  const ordered = await remoteOrder(env, command, candidates, times);
  return runClaims(storage, env, visiting, visitFlow(t, command, ordered, Date.now()));
}
