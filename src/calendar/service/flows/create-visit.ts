/**
 * A visit — several services back to back — or a series — one service at several times — on the one claim protocol
 * (claims/run-claims.ts). The first segment's calendar is the entry: its tentative rows hold the seats of the segments
 * of its own service, and the first of them lists every claim of the visit — each segment's people and resources, and
 * the seat of each segment of another service in that service's calendar (steps/seat-claims.ts). Every claim granted →
 * one transaction books the entry's segments and owes each other calendar the confirmation of its seat (with who
 * booked, for the audit); a refusal releases what was granted and tries the refusing segment's next person, else names
 * that segment; no answer or a reset → everything is released (by the deadline alarm if nobody else).
 */

import { newId } from "../../../lib/ids";
import { type BookingRecord, toBooking } from "../../../types/booking";
import { confirmationOf } from "../../../types/message";
import { type ClaimRef, claimOrder } from "../../claim-types";
import { type Candidate, candidatesForEach } from "../../claims/preference";
import {
  type Attempt,
  type Next,
  type Phases,
  phases,
  type Refusal,
  type Refused,
  runClaims,
  TENTATIVE_MS,
} from "../../claims/run-claims";
import { blockedSpan, type Span } from "../../rules/service-rules";
import type { CalendarRefusal, VisitCommand, VisitResult, VisitSegment } from "../../types";
import { candidateKey, firstWithSeat, noCandidateLeft, ruledOut, singleWay, untried } from "../steps/candidates";
import { noAnswer, refsOf, tooLate } from "../steps/claiming";
import { assigneeIdsOf, buildBooking, commitBooking } from "../steps/commit-booking";
import { expireHolds } from "../steps/expiry";
import {
  dropLocalRows,
  isLocal,
  localSegments,
  type SegmentAssignees,
  segmentAssignees,
  segmentNeeds,
  segmentRefusal,
  timesOf,
} from "../steps/segment-plan";
import { localOrder, serviceFinal, visitLimitStep } from "../steps/visit-limits";
import type { CalendarTables, FlowDeps } from "../tables/tables";
import { remoteOrder } from "./visit-order";

/** A visit's flow: the tables, the request, each segment's candidates, and the attempt in hand. */
export type VisitFlow = {
  tables: CalendarTables;
  command: VisitCommand;
  candidates: Candidate[][];
  /** One customer id for every segment (D1 may link them to an existing customer). */
  customerId: string;
  /** The records and candidates of the current attempt, by segment. */
  current?: SegmentAssignees;
};

/**
 * A visit, awaiting between its transactions: every segment's candidates (calendars read) in
 * their services' assignment order, then the claim protocol, each phase below one transaction.
 */
export async function createVisitFlow({ storage, env, tables }: FlowDeps, command: VisitCommand): Promise<VisitResult> {
  const candidates = await candidatesForEach(env, segmentAssignees(command));
  const ordered = await remoteOrder(env, command, candidates, timesOf(command));
  return runClaims(storage, env, visiting, visitFlow(tables, command, ordered, Date.now()));
}

/** The refusals of the last attempt, by segment. */
type Last = Map<number, Refusal>;

const firstOf = (command: VisitCommand) => command.segments[0] as VisitSegment;
const done = (result: VisitResult): Next<VisitResult> => ({ kind: "done", result });
const refuse = (refusal: CalendarRefusal, segment?: number): Next<VisitResult> =>
  done({ ok: false, refusal, ...(segment === undefined ? {} : { segment }) });

/** The replay of a visit made under the same key, the rules of every segment, then the seats and claims. */
export function beginVisit(flow: VisitFlow, now: number): Next<VisitResult> {
  const { tables, command } = flow;
  const prior = tables.idempotency.prior(command.idempotency, now);
  if (prior && "refusal" in prior) return refuse(prior.refusal);
  if (prior) {
    const bookings = tables.visits.find(prior.made) ?? [];
    return done({ ok: true, appointmentId: prior.made, bookings, replayed: true });
  }
  const stale = tables.serviceVersion.stale(firstOf(command).service.version, now);
  if (stale) return refuse(stale);
  expireHolds(tables, now);
  const times = timesOf(command);
  for (const [i, time] of times.entries()) {
    const broken = segmentRefusal(command, i, time, now);
    if (broken) return refuse(broken.refusal, broken.segment);
  }
  return visitLimitStep(tables, command, times, now) ?? seatVisit(flow, [], undefined, now);
}

/** The next staffing of every segment, the entry's tentative rows, and the claims to make. */
function seatVisit(flow: VisitFlow, tried: string[], last: Last | undefined, now: number): Next<VisitResult> {
  const { tables, command } = flow;
  const times = timesOf(command);
  const blocked = command.segments.map((s, i) =>
    blockedSpan(s.service, (times[i] as Span).start, (times[i] as Span).end),
  );
  const assignees: Candidate[] = [];
  const unassignable: { segment: number; refusal: CalendarRefusal }[] = [];
  const triedBySegment = Map.groupBy(tried, (t) => t.slice(0, t.indexOf(":")));
  for (const [i, segment] of command.segments.entries()) {
    const triedHere = (triedBySegment.get(String(i)) ?? []).map((t) => t.slice(t.indexOf(":") + 1));
    const candidates = flow.candidates[i] ?? [];
    const order = localOrder(flow, i, assignees);
    const pick = isLocal(command, i)
      ? firstWithSeat(tables.reservations.seats, segment.service, order, blocked[i] as Span, triedHere)
      : untried(candidates, triedHere);
    if (pick) assignees.push(pick);
    else unassignable.push({ segment: i, refusal: noCandidateLeft(singleWay(segment), last?.get(i), candidates) });
  }
  const [none] = unassignable;
  if (none) {
    const reasons = unassignable.map(({ segment, refusal }) => ({
      segment,
      reason: "reason" in refusal ? refusal.reason : "",
    }));
    return done({ ok: false, refusal: none.refusal, segment: none.segment, unassignable: reasons });
  }
  const series = command.series ? { seriesId: command.appointmentId } : { appointmentId: command.appointmentId };
  // A segment staffed as in the refused attempt keeps its booking id, so its claims (kept, not
  // released) are replays; only the refusing segments' are made anew.
  const kept = last && flow.current;
  const records = command.segments.map((segment, i) =>
    kept && !last.has(i) && candidateKey(kept.assignees[i] as Candidate) === candidateKey(assignees[i] as Candidate)
      ? (kept.records[i] as BookingRecord)
      : buildBooking(
          segment.service,
          { ...command.customer, answers: segment.answers },
          {
            ...(times[i] as Span),
            assignees: assigneeIdsOf(assignees[i] as Candidate),
            customerId: flow.customerId,
            ...series,
          },
          now,
        ),
  );
  flow.current = { records, assignees };
  const needs = command.segments.flatMap((_, i) => segmentNeeds(command, { records, assignees }, i, times[i] as Span));
  const local = localSegments(command);
  if (needs.length === 0) {
    for (const i of local) tables.reservations.insert(records[i] as BookingRecord, blocked[i] as Span);
    return done(commitVisit(flow, now));
  }
  const sorted = needs.sort(claimOrder);
  const tentativeUntil = now + TENTATIVE_MS;
  for (const i of local) {
    // The first row lists every claim, so giving it up (at the deadline too) releases them all.
    const claims = i === 0 ? refsOf(sorted) : [];
    tables.reservations.insert(records[i] as BookingRecord, blocked[i] as Span, { claims, tentativeUntil });
  }
  tables.alarm.arm(tentativeUntil);
  const [first] = records as [BookingRecord];
  return { kind: "claim", attempt: { rowId: first.id, businessId: first.businessId, needs: sorted, tried } };
}

/** Books the entry's segments here, owes every other segment's calendar its confirmation, and remembers the answer. */
function commitVisit(flow: VisitFlow, now: number): VisitResult {
  const { tables, command } = flow;
  const { records } = flow.current as SegmentAssignees;
  // One confirmation lists the whole visit (or series): it rides on the first segment's event.
  const mail = confirmationOf(command.appointmentId, records);
  for (const [i, record] of records.entries()) {
    const base = { service: (command.segments[i] as VisitSegment).service, actor: command.actor };
    if (isLocal(command, i)) {
      commitBooking(tables, tables.reservations.load(record.id), { ...base, ...(i === 0 ? { mail } : {}) }, now);
      continue;
    }
    const { reminders = [] } = base.service;
    const ref: ClaimRef = { calendar: "service", id: record.serviceId, claimId: record.id };
    tables.tasks.owe(record.businessId, ref, { claimId: record.id, reminders, actor: base.actor }, now);
  }
  const bookings = records.map(toBooking);
  tables.visits.remember(command.appointmentId, bookings, now);
  tables.idempotency.remember(command.idempotency, command.appointmentId, now);
  return { ok: true, appointmentId: command.appointmentId, bookings, replayed: false };
}

/** Every claim was granted: each of the entry's rows keeps its own claims only, and the visit is committed. */
export function confirmVisit(flow: VisitFlow, attempt: Attempt, now: number): VisitResult {
  const { tables } = flow;
  if (!tables.reservations.isTentative(attempt.rowId)) return { ok: false, refusal: tooLate("visit") };
  const { records } = flow.current as SegmentAssignees;
  for (const i of localSegments(flow.command)) {
    const id = (records[i] as BookingRecord).id;
    const own = refsOf(attempt.needs).filter((ref) => ref.claimId === id && ref.calendar !== "service");
    tables.reservations.confirm(id, own);
  }
  return commitVisit(flow, now);
}

/**
 * A calendar refused: what was granted is released, and each refusing segment's next staffing is
 * tried (none, when the calendar would refuse every other staffing alike).
 */
export function retryVisit(flow: VisitFlow, attempt: Attempt, refused: Refused, now: number): Next<VisitResult> {
  const { tables } = flow;
  if (!tables.reservations.isTentative(attempt.rowId)) return refuse(tooLate("visit"));
  dropLocalRows(flow.tables.reservations, flow.command, flow.current?.records);
  const { records, assignees } = flow.current as SegmentAssignees;
  const refusals = [refused, ...refused.others];
  const segmentOf = ({ at }: Refusal) =>
    Math.max(
      0,
      records.findIndex((r) => r.id === at.claimId),
    );
  // The service's own hours (or limits) refused: nobody else can change that. Everything the visit may hold goes.
  const hours = refusals.find((r) => r.at.calendar === "service" && serviceFinal.has(r.reason));
  if (hours) {
    tables.tasks.release(attempt.businessId, refsOf(attempt.needs), now);
    return refuse({ code: "slot_unavailable", reason: hours.reason, detail: hours.detail }, segmentOf(hours));
  }
  const last: Last = new Map();
  for (const r of refusals) if (!last.has(segmentOf(r))) last.set(segmentOf(r), r);
  // Each refusing segment's person is tried, and so is everyone the refusal rules out alike.
  const tried = [
    ...attempt.tried,
    ...[...last].flatMap(([i, r]) =>
      [candidateKey(assignees[i] as Candidate), ...ruledOut(flow.candidates[i] ?? [], r)].map((key) => `${i}:${key}`),
    ),
  ];
  const next = seatVisit(flow, tried, last, now);
  // What the next attempt does not keep is released — everything when it gave up. Every claim
  // of the attempt, granted now or kept from an earlier one (a release of one never made only
  // leaves a tombstone, and a dropped id is never used again).
  const kept = new Set(next.kind === "claim" ? (flow.current as SegmentAssignees).records.map((r) => r.id) : []);
  tables.tasks.release(
    attempt.businessId,
    refsOf(attempt.needs).filter((c) => !kept.has(c.claimId)),
    now,
  );
  return next;
}

/** A calendar did not answer: the rows go and every claim the visit may have made is released. */
export function abandonVisit(flow: VisitFlow, attempt: Attempt, _claims: ClaimRef[], now: number): VisitResult {
  dropLocalRows(flow.tables.reservations, flow.command, flow.current?.records);
  // Claims kept from an earlier attempt may come after the one that did not answer: all go.
  flow.tables.tasks.release(attempt.businessId, refsOf(attempt.needs), now);
  return { ok: false, refusal: noAnswer("visit") };
}

/** A new visit, in the phases of the claim protocol. */
export const visiting: Phases<VisitFlow, VisitResult> = phases(beginVisit, confirmVisit, retryVisit, abandonVisit);

/** The flow of a visit, with one customer id for all its segments. */
export const visitFlow = (tables: CalendarTables, command: VisitCommand, candidates: Candidate[][], now: number) => ({
  tables,
  command,
  candidates,
  customerId: command.customerId ?? newId("customer", now),
});
