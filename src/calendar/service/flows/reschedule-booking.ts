/**
 * Rescheduling: a booking keeps its id and status and moves to a new time (and maybe another
 * person). Every rule of a new booking applies, with the booking itself not counted.
 *
 * A booking that claims nothing elsewhere moves in one transaction: the new span is taken and the
 * old one freed in the same step. Otherwise a tentative `move` row holds the new time while the
 * other calendars claim it (beside the booking's current claims, which they do not count); then
 * one transaction moves the booking and drops the row, and the old claims are released. Refused,
 * unanswered or timed out, the row goes and the booking is untouched.
 */
import { type BookingRecord, holdsCapacity, toBooking } from "../../../types/booking";
import type { ClaimRef, TimeNeed } from "../../claim-types";
import { type Candidate, fixedCandidate, oneEach, preferenceOrder } from "../../claims/preference";
import { type Attempt, type Next, type Phases, phases, type Refused, runClaims } from "../../claims/run-claims";
import { assignOrder, customerRefusal, periodRefusal } from "../../limits/service-checks";
import { policyWindowRefusal } from "../../rules/policy";
import { blockedSpan, checkRequest, type Span } from "../../rules/service-rules";
import type { CalendarRefusal, CalendarResult, RescheduleCommand } from "../../types";
import { firstWithSeat, noCandidateLeft, type Tries, triesAfter } from "../steps/candidates";
import { abandonTentative, claimFor, claimNeeds, type Interval, refsOf, tooLate } from "../steps/claiming";
import { assigneeIdsOf } from "../steps/commit-booking";
import { expireHolds } from "../steps/expiry";
import { priorAnswer } from "../tables/idempotency-records";
import { moveRowId } from "../tables/reservations";
import type { CalendarTables, FlowDeps } from "../tables/tables";

const done = (result: CalendarResult): Next<CalendarResult> => ({ kind: "done", result });
const refused = (refusal: CalendarRefusal): Next<CalendarResult> => done({ ok: false, refusal });

/**
 * A move's flow: the calendar's tables, the request, and — for a booking made before its service
 * had providers — the service's candidates in preference order.
 */
export type MoveFlow = { tables: CalendarTables; command: RescheduleCommand; preferred: Candidate[] };

/**
 * A move to a new time (and maybe person). Awaits the service's candidates only when the booking
 * is assigned a person, then the claim protocol, whose phases below each run in one transaction.
 */
export async function rescheduleBookingFlow(deps: FlowDeps, command: RescheduleCommand): Promise<CalendarResult> {
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

/**
 * Who a move may go to, on a service with providers: the provider asked for; else the booking's
 * own, while they still perform the service; else, for a booking made before the service had
 * providers or (by a manage link) one whose provider left it, the service's candidates in
 * `preferred` order (assigned as for a new booking). Undefined when the booking's own provider
 * left the service and none was asked for, on a call with the key.
 */
export function moveCandidates(
  command: RescheduleCommand,
  current: BookingRecord,
  preferred: Candidate[],
): Candidate[] | undefined {
  const fixed = fixedCandidate(command.service, command);
  if (fixed) return [fixed];
  const providers = command.providers ?? [];
  const one = (id: string) => oneEach([id], command);
  if (command.providerId) return one(command.providerId);
  if (!current.providerId) return preferred;
  if (providers.some((p) => p.id === current.providerId)) return one(current.providerId);
  return command.reassignIfLeft ? preferred : undefined;
}

/** The checks of a move, then the move itself or its tentative row. Inside the caller's transaction. */
export function beginMove({ tables, command, preferred }: MoveFlow, now: number): Next<CalendarResult> {
  const { reservations } = tables;
  const prior = priorAnswer(tables, command.idempotency, now);
  if (prior) return done(prior);
  const stale = tables.serviceVersion.stale(command.service.version, now);
  if (stale) return refused(stale);
  const current = reservations.find(command.bookingId);
  if (!current) return refused({ code: "not_found", detail: `No booking ${command.bookingId}.` });
  if (command.expectedVersions !== undefined && !command.expectedVersions.includes(current.version)) {
    const detail = "The booking changed since the ETag you sent.";
    return refused({ code: "precondition_failed", detail, version: current.version });
  }
  if (!holdsCapacity(current.status)) {
    return refused({ code: "invalid_transition", detail: `A ${current.status} booking cannot be rescheduled.` });
  }
  const policy = policyWindowRefusal("rescheduled", current.startTime, command.customerNoticeMinutes, now);
  if (policy) return refused(policy);
  if (reservations.isTentative(moveRowId(current.id))) {
    return refused({ code: "unavailable", detail: "The booking is being moved already; retry in a moment." });
  }
  expireHolds(tables, now);
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const violation = checkRequest(command.service, start, end, now);
  if (violation?.kind === "invalid") return refused({ code: "validation_failed", ...violation });
  if (violation) return refused({ code: "slot_unavailable", reason: violation.reason, detail: violation.detail });
  const candidates = moveCandidates(command, current, preferred);
  if (!candidates) {
    return refused({
      code: "validation_failed",
      reason: "provider_left_service",
      field: "providerId",
      detail: `The booking's provider ${current.providerId} no longer performs this service: send the providerId of one who does.`,
    });
  }
  // The booking's own row is counted where it is now; the customer's count changes only for a
  // booking that has started (upcoming again once moved).
  const was = Date.parse(current.startTime);
  const limit =
    periodRefusal(tables.counts, command.service, start, { moving: was }) ??
    (was <= now ? customerRefusal(tables.counts, command.service, current.customerEmail, now) : null);
  if (limit) return refused(limit);
  return seatNext({ tables, command }, current, candidates, { start, end }, { tried: [] }, now);
}

/**
 * Takes the new time for the next candidate: moved at once when the booking claims nothing
 * elsewhere (its old claims released), else a tentative move row and the claims to make.
 */
function seatNext(
  { tables, command }: Pick<MoveFlow, "tables" | "command">,
  current: BookingRecord,
  candidates: Candidate[],
  time: Interval,
  { tried, last }: Tries,
  now: number,
): Next<CalendarResult> {
  const { service } = command;
  const blocked = blockedSpan(service, time.start, time.end);
  const ordered = assignOrder(tables.counts, service, candidates, time.start);
  const candidate = firstWithSeat(tables.reservations.seats, service, ordered, blocked, tried, current.id);
  if (!candidate) return refused(noCandidateLeft(candidates.length === 1, last, candidates));
  const moved: BookingRecord = {
    ...current,
    ...assigneeIdsOf(candidate),
    startTime: new Date(time.start).toISOString(),
    endTime: new Date(time.end).toISOString(),
    version: current.version + 1,
    updatedAt: new Date(now).toISOString(),
  };
  // A fresh id per attempt, never the booking's current claim id (two moves can share a
  // millisecond): a release of an earlier, unanswered attempt leaves a tombstone.
  const claimId = `${current.id}.m${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const held = tables.reservations.claimsOf(current.id);
  const alongside = (calendarId: string) => held.find((c) => c.id === calendarId)?.claimId ?? null;
  const claimed = { serviceId: service.id, ...time, blocked, capacity: service.capacity, moving: true };
  const needs = claimNeeds(candidate, claimed, claimId, alongside);
  if (needs.length === 0) return done(commitMove(tables, command, current, moved, blocked, [], now));
  const row = { rowId: moveRowId(current.id), businessId: service.businessId, needs };
  return claimFor(tables, row, candidate, tried, now, (tentative) =>
    tables.reservations.insert(moved, blocked, tentative, "move"),
  );
}

/** Every claim of the new time was granted: the booking moves, in the caller's transaction. */
export function finishMove({ tables, command }: MoveFlow, attempt: Attempt, now: number): CalendarResult {
  const { reservations } = tables;
  if (!reservations.isTentative(attempt.rowId)) return { ok: false, refusal: tooLate("move") };
  const moved = reservations.load(attempt.rowId);
  const current = reservations.load(moved.id);
  if (!holdsCapacity(current.status)) {
    // Cancelled (or completed) while the other calendars were deciding: the move is moot.
    abandonTentative("move")({ tables }, attempt, refsOf(attempt.needs), now);
    const detail = `The booking became ${current.status} meanwhile; it was not moved.`;
    return { ok: false, refusal: { code: "invalid_transition", detail } };
  }
  const claims = reservations.removeTentative(attempt.rowId);
  const { blockedStart, blockedEnd } = (attempt.needs[0] as TimeNeed).command;
  return commitMove(tables, command, current, moved, { start: blockedStart, end: blockedEnd }, claims, now);
}

/** A calendar refused the new time: the row goes, what was granted is released, the next candidate is tried. */
export function retryMove(flow: MoveFlow, attempt: Attempt, refusal: Refused, now: number): Next<CalendarResult> {
  const { tables, command, preferred } = flow;
  if (!tables.reservations.isTentative(attempt.rowId)) return refused(tooLate("move"));
  const moved = tables.reservations.load(attempt.rowId);
  tables.reservations.removeTentative(attempt.rowId);
  tables.tasks.release(attempt.businessId, refusal.granted, now);
  const current = tables.reservations.find(moved.id);
  if (!current || !holdsCapacity(current.status)) {
    return refused({ code: "slot_unavailable", reason: refusal.reason, detail: refusal.detail });
  }
  const time = { start: Date.parse(moved.startTime), end: Date.parse(moved.endTime) };
  const candidates = moveCandidates(command, current, preferred) ?? [];
  return seatNext(flow, current, candidates, time, triesAfter(attempt, refusal, candidates), now);
}

/** A move, in the phases of the claim protocol. */
export const moving: Phases<MoveFlow, CalendarResult> = phases(
  beginMove,
  finishMove,
  retryMove,
  abandonTentative("move"),
);

/** Moves the booking to its new span and claims; the claims it held before are released. */
function commitMove(
  tables: CalendarTables,
  command: RescheduleCommand,
  current: BookingRecord,
  moved: BookingRecord,
  blocked: Span,
  claims: ClaimRef[],
  now: number,
): CalendarResult {
  const previous = tables.reservations.claimsOf(current.id);
  tables.reservations.move(moved, blocked, claims);
  const kept = new Set(claims.map((c) => `${c.calendar}:${c.id}:${c.claimId}`));
  tables.tasks.release(
    current.businessId,
    previous.filter((c) => !kept.has(`${c.calendar}:${c.id}:${c.claimId}`)),
    now,
  );
  tables.outbox.enqueue(moved.id, moved.version, now);
  tables.events.raiseRescheduled(current, moved, moved.updatedAt, command.actor);
  tables.reminders.plan(moved, command.service.reminders ?? [], now);
  tables.idempotency.remember(command.idempotency, moved.id, now);
  return { ok: true, booking: toBooking(moved), version: moved.version, replayed: false };
}
