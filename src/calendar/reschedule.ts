/**
 * Rescheduling: a booking keeps its id and status and moves to a new time (and, on a service
 * with providers, possibly to another provider). Every rule of a new booking applies, with the
 * booking itself not counted.
 *
 * Without providers it is one transaction: the new span is taken and the old one freed in the
 * same step. With providers the new time is first held by a tentative `move` row here while the
 * provider calendar claims it (alongside the booking's current claim, which it does not count);
 * then one transaction moves the booking and drops the row, and the old claim is released.
 * Refused, unanswered or timed out, the row goes and the booking is untouched.
 */
import { holdsCapacity, toBooking } from "../domain/booking";
import { priorAnswer } from "./idempotency-records";
import type { StoredBooking } from "./persist";
import type { ProviderReason } from "./provider/reasons";
import type { ClaimCommand, ProviderSnapshot } from "./provider/types";
import { TENTATIVE_MS } from "./provider-booking";
import { moveRowId } from "./reservations";
import { blockedSpan, checkCapacity, checkRequest, type Span } from "./rules";
import type { CalendarTables } from "./tables";
import type { CalendarRefusal, CalendarResult, RescheduleCommand } from "./types";

/** What a move needs next: an answer, or the provider calendar's claim on the new time. */
export type MoveStep =
  | { kind: "done"; result: CalendarResult }
  | { kind: "claim"; bookingId: string; providerId: string; claim: ClaimCommand; tried: string[] };

const refused = (refusal: CalendarRefusal): MoveStep => ({ kind: "done", result: { ok: false, refusal } });

/**
 * Who a move may go to, in order, on a service with providers: the provider asked for; else the
 * booking's own, while they still perform the service; else, for a booking made before the
 * service had providers, the service's providers in `preferred` order (assigned as for a new
 * booking). Undefined when the booking's own provider left the service and none was asked for.
 */
export function moveCandidates(
  command: RescheduleCommand,
  current: StoredBooking,
  preferred: string[],
): string[] | undefined {
  if (command.providerId) return [command.providerId];
  if (!current.providerId) return preferred;
  return command.providers?.some((p) => p.id === current.providerId) ? [current.providerId] : undefined;
}

/**
 * The checks of a move, then (without providers) the move itself or (with providers) the
 * tentative row holding the new time for the first candidate with a seat. Inside the caller's
 * transaction. On a service that no longer has providers the moved booking has none either: its
 * person's time is released once it moves.
 */
export function beginMove(
  tables: CalendarTables,
  command: RescheduleCommand,
  preferred: string[],
  now: number,
): MoveStep {
  const { reservations } = tables;
  const { service, idempotency } = command;
  const prior = priorAnswer(tables.idempotency, reservations, idempotency, now);
  if (prior) return { kind: "done", result: prior };
  const stale = tables.serviceVersion.stale(service.version);
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
  if (reservations.isTentative(moveRowId(current.id))) {
    return refused({ code: "unavailable", detail: "The booking is being moved already; retry in a moment." });
  }
  for (const claim of tables.holds.expire(now)) tables.releases.queue(claim, now);
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const violation = checkRequest(service, start, end, now);
  if (violation?.kind === "invalid") return refused({ code: "validation_failed", ...violation });
  if (violation) return refused({ code: "slot_unavailable", reason: violation.reason, detail: violation.detail });

  const blocked = blockedSpan(service, start, end);
  const moved: StoredBooking = {
    ...current,
    providerId: null,
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    version: current.version + 1,
    updatedAt: new Date(now).toISOString(),
  };
  if (!command.providers || command.providers.length === 0) {
    const full = checkCapacity(service, reservations.holdingOverlapping(blocked, current.id).length);
    if (full) return refused({ code: "slot_unavailable", reason: "fully_booked", detail: full.detail });
    const previousClaim = reservations.claimOf(current.id);
    const result = commitMove(tables, command, current, moved, blocked, null, now);
    if (previousClaim) tables.releases.queue(previousClaim, now);
    return { kind: "done", result };
  }
  const candidates = moveCandidates(command, current, preferred);
  if (!candidates) {
    return refused({
      code: "validation_failed",
      reason: "provider_left_service",
      field: "providerId",
      detail: `The booking's provider ${current.providerId} no longer performs this service: send the providerId of one who does.`,
    });
  }
  return claimNext(tables, command, current, moved, blocked, candidates, [], now);
}

/**
 * The first candidate not yet tried with a seat in their session here gets a tentative row for
 * the new time and a claim to make; with none left, the move is refused.
 */
function claimNext(
  tables: CalendarTables,
  command: RescheduleCommand,
  current: StoredBooking,
  moved: StoredBooking,
  blocked: Span,
  candidates: string[],
  tried: string[],
  now: number,
): MoveStep {
  const { reservations } = tables;
  const { service } = command;
  const providerId = candidates.find(
    (id) => !tried.includes(id) && reservations.seatsTaken(id, blocked, current.id) < service.capacity,
  );
  if (!providerId) {
    if (candidates.length === 1) {
      const detail = "The provider's session at that time is fully booked.";
      return refused({ code: "slot_unavailable", reason: "fully_booked", detail });
    }
    const detail = "None of the service's providers is free at that time.";
    return refused({ code: "slot_unavailable", reason: "no_provider_available", detail });
  }
  const provider = command.providers?.find((p) => p.id === providerId) as ProviderSnapshot;
  const held = reservations.claimOf(current.id);
  // A fresh id per attempt, never the booking's current claim id (two moves can share a
  // millisecond): a release of an earlier, unanswered attempt leaves a tombstone.
  const claimId = `${current.id}.m${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  reservations.insert({ ...moved, providerId }, blocked, { claimId, tentativeUntil: now + TENTATIVE_MS }, "move");
  tables.alarm.arm(now + TENTATIVE_MS);
  return {
    kind: "claim",
    bookingId: current.id,
    providerId,
    claim: claimOf(moved, blocked, claimId, service.capacity, provider, held?.claimId ?? null),
    tried: [...tried, providerId],
  };
}

/**
 * The provider calendar refused the new time for `step.providerId`: the tentative row goes and
 * the next candidate is tried; with one candidate (asked for, or the booking's own) the refusal
 * is the answer. Inside the caller's transaction.
 */
export function nextMoveCandidate(
  tables: CalendarTables,
  command: RescheduleCommand,
  step: Extract<MoveStep, { kind: "claim" }>,
  candidates: string[],
  refusal: { reason: ProviderReason; detail: string },
  now: number,
): MoveStep {
  dropMove(tables, step, true, now);
  const current = tables.reservations.find(step.bookingId);
  if (candidates.length === 1 || !current || !holdsCapacity(current.status)) {
    return refused({ code: "slot_unavailable", reason: refusal.reason, detail: refusal.detail });
  }
  const blocked = { start: step.claim.blockedStart, end: step.claim.blockedEnd };
  const moved: StoredBooking = {
    ...current,
    providerId: null,
    startTime: new Date(step.claim.start).toISOString(),
    endTime: new Date(step.claim.end).toISOString(),
    version: current.version + 1,
    updatedAt: new Date(now).toISOString(),
  };
  return claimNext(tables, command, current, moved, blocked, candidates, step.tried, now);
}

/** The provider calendar accepted the new time: the booking moves, in the caller's transaction. */
export function finishMove(
  tables: CalendarTables,
  command: RescheduleCommand,
  step: Extract<MoveStep, { kind: "claim" }>,
  now: number,
): CalendarResult {
  const { reservations } = tables;
  const rowId = moveRowId(step.bookingId);
  if (!reservations.isTentative(rowId)) {
    const detail = "The move took too long to confirm; the booking is unchanged. Retry.";
    return { ok: false, refusal: { code: "unavailable", detail } };
  }
  const moved = reservations.load(rowId);
  const current = reservations.load(step.bookingId);
  const blocked = { start: step.claim.blockedStart, end: step.claim.blockedEnd };
  if (!holdsCapacity(current.status)) {
    // Cancelled (or completed) while the provider calendar was deciding: the move is moot.
    dropMove(tables, step, false, now);
    const detail = `The booking became ${current.status} meanwhile; it was not moved.`;
    return { ok: false, refusal: { code: "invalid_transition", detail } };
  }
  reservations.removeTentative(rowId);
  const previousClaim = reservations.claimOf(current.id);
  const result = commitMove(tables, command, current, moved, blocked, step.claim.claimId, now);
  if (previousClaim && previousClaim.claimId !== step.claim.claimId) tables.releases.queue(previousClaim, now);
  return result;
}

/** The move was refused or not answered: the row goes; an unanswered claim is released. */
export function dropMove(
  tables: CalendarTables,
  step: Extract<MoveStep, { kind: "claim" }>,
  answered: boolean,
  now: number,
): void {
  tables.reservations.removeTentative(moveRowId(step.bookingId));
  if (!answered) {
    const claim = {
      businessId: step.claim.provider.businessId,
      providerId: step.providerId,
      claimId: step.claim.claimId,
    };
    tables.releases.queue(claim, now);
  }
}

function commitMove(
  tables: CalendarTables,
  command: RescheduleCommand,
  current: StoredBooking,
  moved: StoredBooking,
  blocked: Span,
  claimId: string | null,
  now: number,
): CalendarResult {
  tables.reservations.move(moved, blocked, claimId);
  tables.outbox.enqueue(moved.id, moved.version, now);
  tables.events.raiseRescheduled(current, moved, moved.updatedAt);
  if (command.idempotency) {
    const { key, requestHash } = command.idempotency;
    tables.idempotency.remember(key, { requestHash, bookingId: moved.id }, now);
  }
  return { ok: true, booking: toBooking(moved), version: moved.version, replayed: false };
}

function claimOf(
  moved: StoredBooking,
  blocked: Span,
  claimId: string,
  capacity: number,
  provider: ProviderSnapshot,
  alongside: string | null,
): ClaimCommand {
  return {
    claimId,
    serviceId: moved.serviceId,
    start: Date.parse(moved.startTime),
    end: Date.parse(moved.endTime),
    blockedStart: blocked.start,
    blockedEnd: blocked.end,
    capacity,
    provider,
    alongside,
  };
}
