/**
 * Creating a booking in the service's calendar. The rules are checked and the seat is taken in
 * one synchronous transaction; a booking that needs other calendars (people) holds its seat in a
 * tentative row while they are claimed (claims/run-claims.ts), then is committed, or the next
 * candidate is tried, or it is given up — each step one transaction.
 */

import { type Candidate, candidatesFor } from "../../claims/preference";
import { type Attempt, type Next, type Phases, phases, type Refused, runClaims } from "../../claims/run-claims";
import { assignOrder, newBookingRefusal } from "../../limits/service-checks";
import { blockedSpan, checkRequest, type Span } from "../../rules/service-rules";
import type { CalendarRefusal, CalendarResult, CreateBookingCommand, SlotBookingCommand } from "../../types";
import { firstWithSeat, noCandidateLeft, noSeat, singleWay, type Tries, triesAfter } from "../steps/candidates";
import { abandonTentative, claimFor, claimNeeds, type Interval, tooLate } from "../steps/claiming";
import { assigneeIdsOf, buildBooking, commitBooking } from "../steps/commit-booking";
import { expireHolds } from "../steps/expiry";
import { consumeHold } from "../steps/hold-end";
import { priorAnswer } from "../tables/idempotency-records";
import type { CalendarTables, FlowDeps } from "../tables/tables";

const done = (result: CalendarResult): Next<CalendarResult> => ({ kind: "done", result });
const refused = (refusal: CalendarRefusal): Next<CalendarResult> => done({ ok: false, refusal });

/** A booking's flow: the calendar's tables, the request, and the ways to assign it in order. */
export type CreateFlow = { tables: CalendarTables; command: SlotBookingCommand; candidates: Candidate[] };

/**
 * A new booking (or a hold's), committed here; D1 is written by the caller or the alarm. A hold's
 * booking is one transaction (steps/hold-end.ts); a slot's awaits its candidates (their calendars
 * read), then the claim protocol, whose phases below each run in one transaction.
 */
export async function createBookingFlow(deps: FlowDeps, command: CreateBookingCommand): Promise<CalendarResult> {
  const { storage, env, tables: t } = deps;
  // A hold's booking is decided in one transaction, the hold found and checked here (one call).
  if (command.hold) {
    const held = command;
    return storage.transactionSync(() => consumeHold(t, held, Date.now()));
  }
  const { service, providerId, booking } = command;
  const candidates = await candidatesFor(env, service, command, providerId, booking.startTime);
  return runClaims(storage, env, creating, { tables: t, command, candidates });
}

/** The checks of a new booking, then its seat for the first candidate with one. Inside the caller's transaction. */
export function beginCreate({ tables, command, candidates }: CreateFlow, now: number): Next<CalendarResult> {
  const prior = priorAnswer(tables, command.idempotency, now);
  if (prior) return done(prior);
  const stale = tables.serviceVersion.stale(command.service.version, now);
  if (stale) return refused(stale);
  expireHolds(tables, now);
  const start = Date.parse(command.booking.startTime);
  const end = Date.parse(command.booking.endTime);
  const violation = checkRequest(command.service, start, end, now);
  if (violation?.kind === "invalid") return refused({ code: "validation_failed", ...violation });
  if (violation) return refused({ code: "slot_unavailable", reason: violation.reason, detail: violation.detail });
  const limit = newBookingRefusal(tables.counts, command.service, { start, email: command.booking.customerEmail }, now);
  if (limit) return refused(limit);
  return seatNext({ tables, command, candidates }, { start, end }, { tried: [] }, now);
}

/**
 * Takes the seat for the next candidate: committed at once when the booking claims nothing
 * elsewhere, else a tentative row and the claims to make.
 */
function seatNext(flow: CreateFlow, time: Interval, { tried, last }: Tries, now: number): Next<CalendarResult> {
  const { tables, command, candidates } = flow;
  const { service } = command;
  const blocked = blockedSpan(service, time.start, time.end);
  const ordered = assignOrder(tables.counts, service, candidates, time.start);
  const candidate = firstWithSeat(tables.reservations.seats, service, ordered, blocked, tried);
  if (!candidate) {
    const result: CalendarResult = { ok: false, refusal: noCandidateLeft(singleWay(command), last, candidates) };
    return noSeat(tables.reservations.seats, ordered, blocked, tried, result);
  }
  const record = buildBooking(
    service,
    command.booking,
    { ...time, assignees: assigneeIdsOf(candidate), customerId: command.customerId },
    now,
  );
  const needs = claimNeeds(candidate, claimedTime(command, time, blocked), record.id);
  if (needs.length === 0) {
    tables.reservations.insert(record, blocked);
    return done(commitBooking(tables, record, command, now));
  }
  const row = { rowId: record.id, businessId: service.businessId, needs };
  return claimFor(tables, row, candidate, tried, now, (tentative) =>
    tables.reservations.insert(record, blocked, tentative),
  );
}

/** Every claim was granted: the tentative row becomes the booking. */
export function confirmCreate({ tables, command }: CreateFlow, attempt: Attempt, now: number): CalendarResult {
  if (!tables.reservations.isTentative(attempt.rowId)) return { ok: false, refusal: tooLate("booking") };
  tables.reservations.confirm(attempt.rowId);
  return commitBooking(tables, tables.reservations.load(attempt.rowId), command, now);
}

/** A calendar refused: the row goes, what was granted is released, and the next candidate is tried. */
export function retryCreate(flow: CreateFlow, attempt: Attempt, refusal: Refused, now: number): Next<CalendarResult> {
  const { tables } = flow;
  if (!tables.reservations.isTentative(attempt.rowId)) return refused(tooLate("booking"));
  const { startTime, endTime } = tables.reservations.load(attempt.rowId);
  tables.reservations.removeTentative(attempt.rowId);
  tables.tasks.release(attempt.businessId, refusal.granted, now);
  const time = { start: Date.parse(startTime), end: Date.parse(endTime) };
  return seatNext(flow, time, triesAfter(attempt, refusal, flow.candidates), now);
}

/** The time a booking claims elsewhere. */
function claimedTime(command: SlotBookingCommand, time: { start: number; end: number }, blocked: Span) {
  return { serviceId: command.service.id, ...time, blocked, capacity: command.service.capacity };
}

/** A new booking, in the phases of the claim protocol. */
export const creating: Phases<CreateFlow, CalendarResult> = phases(
  beginCreate,
  confirmCreate,
  retryCreate,
  abandonTentative("booking"),
);
