/**
 * A visit — several services back to back — on the one claim protocol (claims/flow.ts). The
 * first segment's calendar is the entry: its tentative row holds that segment's seat and lists
 * every claim of the visit — the people and resources of every segment, and each later
 * segment's seat in its own service's calendar (seat-claims.ts). Every claim granted → one
 * transaction books the first segment and owes each other calendar the confirmation of its seat;
 * a refusal releases what was granted and tries the refusing segment's next person, else names
 * that segment; no answer or a reset → everything is released (the deadline alarm does it if
 * nobody else does). So a visit is booked whole or not at all.
 */
import { type BookingRecord, toBooking } from "../../domain/booking";
import { newId } from "../../lib/ids";
import type { ClaimNeed, ClaimRef } from "../claim-types";
import { claimOrder } from "../claim-types";
import { type Attempt, type Phases, phases, type Refused, type Step, TENTATIVE_MS } from "../claims/flow";
import type { Candidate } from "../claims/preference";
import { blockedSpan, checkRequest, type Span, withinWorkingTime } from "../rules/service-rules";
import type { CalendarRefusal, VisitCommand, VisitResult, VisitSegment } from "../types";
import { claimNeeds, noAnswer, refsOf, tooLate } from "./claiming";
import { expireHolds } from "./expiry";
import { buildBooking, commitBooking, staffOf } from "./new-booking";
import { candidateKey, firstWithSeat, noCandidateLeft, singleWay } from "./staffing";
import type { CalendarTables } from "./tables";

const MINUTE = 60_000;

/** A visit's flow: the tables, the request, each segment's candidates, and the attempt in hand. */
export type VisitFlow = {
  tables: CalendarTables;
  command: VisitCommand;
  candidates: Candidate[][];
  /** One customer id for every segment (D1 may link them to an existing customer). */
  customerId: string;
  /** The records and candidates of the current attempt, by segment. */
  current?: { records: BookingRecord[]; staffed: Candidate[] };
};

type Last = { segment: number; refused: Refused };

const outsideHours: CalendarRefusal = {
  code: "slot_unavailable",
  reason: "outside_working_hours",
  detail: "The segment's time is not inside its service's working hours.",
};
const firstOf = (command: VisitCommand) => command.segments[0] as VisitSegment;
const done = (result: VisitResult): Step<VisitResult> => ({ kind: "done", result });
const refuse = (refusal: CalendarRefusal, segment?: number): Step<VisitResult> =>
  done({ ok: false, refusal, ...(segment === undefined ? {} : { segment }) });

/** Each segment's `[start, end)`: the first at the visit's start, each next where the previous ends. */
export function segmentTimes(startTime: string, segments: readonly { service: { durationMinutes: number } }[]) {
  let start = Date.parse(startTime);
  return segments.map(({ service }) => {
    const time = { start, end: start + service.durationMinutes * MINUTE };
    start = time.end;
    return time;
  });
}

/** The replay of a visit made under the same key, the checks of the first segment, then its seat and claims. */
export function beginVisit(flow: VisitFlow, now: number): Step<VisitResult> {
  const { tables, command } = flow;
  const key = command.idempotency;
  const prior = key && tables.idempotency.lookup(key.key, now);
  if (prior && key) {
    if (prior.requestHash !== key.requestHash) {
      return refuse({ code: "idempotency_key_reused", detail: "This key was used for another request." });
    }
    const bookings = tables.visits.find(prior.bookingId) ?? [];
    return done({ ok: true, appointmentId: prior.bookingId, bookings, replayed: true });
  }
  const first = firstOf(command);
  const stale = tables.serviceVersion.stale(first.service.version, now);
  if (stale) return refuse(stale);
  expireHolds(tables, now);
  const times = segmentTimes(command.startTime, command.segments);
  const [time] = times as [Span];
  const violation = checkRequest(first.service, time.start, time.end, now);
  if (violation?.kind === "invalid") return refuse({ code: "validation_failed", ...violation });
  if (violation) return refuse({ code: "slot_unavailable", reason: violation.reason, detail: violation.detail }, 0);
  // Later segments need not sit on their grid, only inside working hours; their calendars check again.
  const outside = command.segments.findIndex(
    (segment, i) => i > 0 && !withinWorkingTime(segment.service, times[i]?.start ?? 0, times[i]?.end ?? 0),
  );
  if (outside > 0) return refuse(outsideHours, outside);
  return seatVisit(flow, [], undefined, now);
}

/** Ids of earlier segments whose staffing includes `calendarId`: a person is not blocked by their own visit. */
function earlier(records: BookingRecord[], staffed: Candidate[], segment: number, calendarId: string): string[] {
  return staffed.slice(0, segment).flatMap((c, j) => {
    const ids = [...c.people.map((p) => p.id), ...c.resources.map((r) => r.id)];
    return ids.includes(calendarId) ? [(records[j] as BookingRecord).id] : [];
  });
}

/** The next staffing of every segment, the first segment's tentative row, and the claims to make. */
function seatVisit(flow: VisitFlow, tried: string[], last: Last | undefined, now: number): Step<VisitResult> {
  const { tables, command } = flow;
  const times = segmentTimes(command.startTime, command.segments);
  const firstBlocked = blockedSpan(firstOf(command).service, (times[0] as Span).start, (times[0] as Span).end);
  const staffed: Candidate[] = [];
  for (const [i, segment] of command.segments.entries()) {
    const triedHere = tried.filter((t) => t.startsWith(`${i}:`)).map((t) => t.slice(`${i}:`.length));
    const pick =
      i === 0
        ? firstWithSeat(tables.reservations.seats, segment.service, flow.candidates[0] ?? [], firstBlocked, triedHere)
        : flow.candidates[i]?.find((c) => !triedHere.includes(candidateKey(c)));
    if (!pick) return refuse(noCandidateLeft(singleWay(segment), last?.segment === i ? last.refused : undefined), i);
    staffed.push(pick);
  }
  const records = command.segments.map((segment, i) =>
    buildBooking(
      segment.service,
      { ...command.customer, answers: segment.answers },
      {
        ...(times[i] as Span),
        staff: staffOf(staffed[i] as Candidate),
        customerId: flow.customerId,
        appointmentId: command.appointmentId,
      },
      now,
    ),
  );
  flow.current = { records, staffed };
  const needs = command.segments.flatMap((segment, i) => segmentNeeds(flow, segment, i, times[i] as Span));
  const [first] = records as [BookingRecord];
  if (needs.length === 0) {
    tables.reservations.insert(first, firstBlocked);
    return done(commitVisit(flow, now));
  }
  const sorted = needs.sort(claimOrder);
  tables.reservations.insert(first, firstBlocked, { claims: refsOf(sorted), tentativeUntil: now + TENTATIVE_MS });
  tables.alarm.arm(now + TENTATIVE_MS);
  return { kind: "claim", attempt: { rowId: first.id, businessId: first.businessId, needs: sorted, tried } };
}

/** What segment `i` claims: its people and resources, and (after the first) its seat in its own service's calendar. */
function segmentNeeds(flow: VisitFlow, segment: VisitSegment, i: number, time: Span): ClaimNeed[] {
  const { records, staffed } = flow.current as NonNullable<VisitFlow["current"]>;
  const record = records[i] as BookingRecord;
  const candidate = staffed[i] as Candidate;
  const { service } = segment;
  const blocked = blockedSpan(service, time.start, time.end);
  const claimed = { serviceId: service.id, ...time, blocked, capacity: service.capacity };
  const own = claimNeeds(candidate, claimed, record.id, (id) => earlier(records, staffed, i, id));
  if (i === 0) return own;
  const sameService = records
    .slice(0, i)
    .filter((r) => r.serviceId === service.id)
    .map((r) => r.id);
  const seat: ClaimNeed = {
    calendar: "service",
    id: service.id,
    claimId: record.id,
    command: {
      claimId: record.id,
      record,
      service,
      providerId: candidate.providerId,
      claims: refsOf(own),
      onGrid: false,
      alongside: sameService,
    },
  };
  return [...own, seat];
}

/** Books the first segment here, owes every other segment's calendar its confirmation, and remembers the answer. */
function commitVisit(flow: VisitFlow, now: number): VisitResult {
  const { tables, command } = flow;
  const { records } = flow.current as NonNullable<VisitFlow["current"]>;
  const [first, ...rest] = records as [BookingRecord, ...BookingRecord[]];
  commitBooking(tables, tables.reservations.load(first.id), firstOf(command), now);
  for (const [j, record] of rest.entries()) {
    const service = command.segments[j + 1]?.service;
    const ref: ClaimRef = { calendar: "service", id: record.serviceId, claimId: record.id };
    tables.tasks.owe(record.businessId, ref, { claimId: record.id, reminders: service?.reminders ?? [] }, now);
  }
  const bookings = records.map(toBooking);
  tables.visits.remember(command.appointmentId, bookings, now);
  const key = command.idempotency;
  if (key)
    tables.idempotency.remember(key.key, { requestHash: key.requestHash, bookingId: command.appointmentId }, now);
  return { ok: true, appointmentId: command.appointmentId, bookings, replayed: false };
}

/** Every claim was granted: the first segment's row keeps its own claims only, and the visit is committed. */
export function confirmVisit(flow: VisitFlow, attempt: Attempt, now: number): VisitResult {
  const { tables } = flow;
  if (!tables.reservations.isTentative(attempt.rowId)) return { ok: false, refusal: tooLate("visit") };
  const own = refsOf(attempt.needs).filter((ref) => ref.claimId === attempt.rowId && ref.calendar !== "service");
  tables.reservations.confirm(attempt.rowId, own);
  return commitVisit(flow, now);
}

/** A calendar refused: what was granted is released, and the refusing segment's next staffing is tried. */
export function retryVisit(flow: VisitFlow, attempt: Attempt, refused: Refused, now: number): Step<VisitResult> {
  const { tables } = flow;
  if (!tables.reservations.isTentative(attempt.rowId)) return refuse(tooLate("visit"));
  tables.reservations.removeTentative(attempt.rowId);
  tables.tasks.release(attempt.businessId, refused.granted, now);
  const { records, staffed } = flow.current as NonNullable<VisitFlow["current"]>;
  const segment = Math.max(
    0,
    records.findIndex((r) => r.id === refused.at.claimId),
  );
  const tried = [...attempt.tried, `${segment}:${candidateKey(staffed[segment] as Candidate)}`];
  return seatVisit(flow, tried, { segment, refused }, now);
}

/** A calendar did not answer: the row goes and every claim it may have made is released. */
export function abandonVisit({ tables }: VisitFlow, attempt: Attempt, claims: ClaimRef[], now: number): VisitResult {
  tables.reservations.removeTentative(attempt.rowId);
  tables.tasks.release(attempt.businessId, claims, now);
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
