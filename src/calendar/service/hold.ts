/**
 * Holds in the service's calendar: placing one (the rules of a booking, then a seat until the
 * expiry; with people, a tentative seat while their calendars claim the time), and turning one
 * into a booking in a single transaction, so the seat is never free in between.
 */
import type { Hold } from "../../domain/hold";
import { type ClaimRef, sessionOf } from "../claim-types";
import { type Attempt, type Phases, phases, type Refused, type Step } from "../claims/flow";
import type { Candidate } from "../claims/preference";
import { blockedSpan, checkRequest } from "../rules/service-rules";
import type { CalendarRefusal, CalendarResult, CreateBookingCommand, HoldCommand, HoldResult } from "../types";
import { claimFor, claimNeeds, noAnswer, tooLate } from "./claiming";
import { expireHolds } from "./expiry";
import { priorAnswer } from "./idempotency-records";
import { assignOrder, customerRefusal, periodRefusal } from "./limits";
import { buildBooking, commitBooking, type Staff } from "./new-booking";
import { firstWithSeat, noCandidateLeft, singleWay, type Tries, triesAfter } from "./staffing";
import type { CalendarTables } from "./tables";

/** The staff of a hold's booking, from what its seat claims. */
function staffOfClaims(providerId: string | null, claims: ClaimRef[]): Staff {
  const ids = (calendar: ClaimRef["calendar"]) => claims.filter((c) => c.calendar === calendar).map((c) => c.id);
  return { providerId, providerIds: ids("provider"), resourceIds: ids("resource") };
}

/** A person's claim for a hold outlives the hold by this much, so a conversion can confirm it in time. */
export const HOLD_CLAIM_GRACE_MS = 5 * 60_000;

const refused = (refusal: CalendarRefusal): Step<HoldResult> => ({ kind: "done", result: { ok: false, refusal } });

/** A hold's flow: the calendar's tables, the request, and the ways to staff it in order. */
export type HoldFlow = { tables: CalendarTables; command: HoldCommand; candidates: Candidate[] };

/** The checks of a hold, then its seat for the first candidate with one. Inside the caller's transaction. */
export function beginHold({ tables, command, candidates }: HoldFlow, now: number): Step<HoldResult> {
  expireHolds(tables, now);
  const stale = tables.serviceVersion.stale(command.service.version, now);
  if (stale) return refused(stale);
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const violation = checkRequest(command.service, start, end, now);
  if (violation?.kind === "invalid") return refused({ code: "validation_failed", ...violation });
  if (violation) return refused({ code: "slot_unavailable", reason: violation.reason, detail: violation.detail });
  const limit = periodRefusal(tables.counts, command.service, start);
  if (limit) return refused(limit);
  return seatNext({ tables, command, candidates }, { tried: [] }, now);
}

function seatNext(flow: HoldFlow, { tried, last }: Tries, now: number): Step<HoldResult> {
  const { tables, command, candidates } = flow;
  const { service } = command;
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const blocked = blockedSpan(service, start, end);
  const ordered = assignOrder(tables.counts, service, candidates, start);
  const candidate = firstWithSeat(tables.reservations.seats, service, ordered, blocked, tried);
  if (!candidate) return refused(noCandidateLeft(singleWay(command), last, candidates));
  const expiresAt = now + command.ttlMs;
  const hold: Hold = {
    id: command.holdId,
    serviceId: service.id,
    providerId: candidate.providerId,
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    status: "HELD",
    bookingId: null,
    createdAt: new Date(now).toISOString(),
  };
  // A fresh claim id per attempt: a release of an earlier attempt's grant leaves a tombstone.
  const claimId = tried.length === 0 ? hold.id : `${hold.id}.${tried.length}`;
  const time = { serviceId: service.id, start, end, blocked, capacity: service.capacity };
  const needs = claimNeeds(candidate, { ...time, expiresAt: expiresAt + HOLD_CLAIM_GRACE_MS }, claimId);
  if (needs.length === 0) {
    tables.holds.place(hold, service.businessId, blocked);
    tables.alarm.arm(expiresAt);
    return { kind: "done", result: { ok: true, hold } };
  }
  const row = { rowId: hold.id, businessId: service.businessId, needs };
  return claimFor(tables, row, candidate, tried, now, (tentative) =>
    tables.holds.place(hold, service.businessId, blocked, tentative),
  );
}

/** Every claim was granted: the hold is live until its expiry. */
export function confirmHold({ tables }: HoldFlow, attempt: Attempt, now: number): HoldResult {
  if (!tables.holds.seat(attempt.rowId)) return { ok: false, refusal: tooLate("hold") };
  tables.holds.confirm(attempt.rowId);
  const hold = tables.holds.find(attempt.rowId, now) as Hold;
  tables.alarm.arm(Date.parse(hold.expiresAt));
  return { ok: true, hold };
}

/** A calendar refused: the seat goes, what was granted is released, and the next candidate is tried. */
export function retryHold(flow: HoldFlow, attempt: Attempt, refusal: Refused, now: number): Step<HoldResult> {
  const { tables } = flow;
  if (!tables.holds.seat(attempt.rowId)) return refused(tooLate("hold"));
  tables.holds.discard(attempt.rowId);
  tables.tasks.release(attempt.businessId, refusal.granted, now);
  return seatNext(flow, triesAfter(attempt, refusal, flow.candidates), now);
}

/** A calendar did not answer: nothing is held, and every claim that may have been made is released. */
export function abandonHold({ tables }: HoldFlow, attempt: Attempt, claims: ClaimRef[], now: number): HoldResult {
  tables.holds.discard(attempt.rowId);
  tables.tasks.release(attempt.businessId, claims, now);
  return { ok: false, refusal: noAnswer("hold") };
}

/** A new hold, in the phases of the claim protocol. */
export const holding: Phases<HoldFlow, HoldResult> = phases(beginHold, confirmHold, retryHold, abandonHold);

/**
 * Turns a live hold into a booking in one transaction: the hold's seat row goes and the
 * booking's comes over the same span with the same claims, so nothing is free in between; each
 * claim is then confirmed without its expiry.
 */
export function consumeHold(
  tables: CalendarTables,
  command: CreateBookingCommand & { holdId: string },
  now: number,
): CalendarResult {
  // A conversion whose answer was lost is answered again, not refused as a consumed hold.
  const prior = priorAnswer(tables.idempotency, tables.reservations, command.idempotency, now);
  if (prior) return prior;
  expireHolds(tables, now);
  const hold = tables.holds.find(command.holdId, now);
  const seat = hold?.status === "HELD" ? tables.holds.seat(command.holdId) : undefined;
  if (!hold || !seat) {
    const detail = hold ? `The hold is ${hold.status}.` : "No live hold with this id.";
    return { ok: false, refusal: { code: "hold_expired", detail } };
  }
  const { service } = command;
  // The hold counted against the day and the week; the customer is known only now.
  const limit = customerRefusal(tables.counts, service, command.booking.customerEmail, now);
  if (limit) return { ok: false, refusal: limit };
  const start = Date.parse(hold.startTime);
  const end = Date.parse(hold.endTime);
  const record = buildBooking(
    service,
    command.booking,
    { start, end, staff: staffOfClaims(hold.providerId, seat.claims), customerId: command.customerId, holdId: hold.id },
    now,
  );
  const claims = tables.holds.end(hold.id, "CONSUMED", record.id);
  tables.waitlist.holdEnded(hold.id, "CONSUMED", record.id, new Date(now).toISOString());
  tables.reservations.insert(record, seat.blocked, { claims, tentativeUntil: null });
  const result = commitBooking(tables, record, command, now);
  // The people keep the hold's claims for the booking, even those who left the service meanwhile.
  const people = seat.claims.filter((c) => c.calendar === "provider").map((c) => c.id);
  const span = { serviceId: service.id, start, end, blockedStart: seat.blocked.start, blockedEnd: seat.blocked.end };
  for (const claim of claims) {
    const session = sessionOf(claim.calendar, service.id, start, people);
    tables.tasks.confirm(
      service.businessId,
      claim,
      { ...span, claimId: claim.claimId, session, capacity: service.capacity, bookingId: record.id },
      now,
    );
  }
  return result;
}

/** Releases a live hold: its seat is free in this transaction and its claims are owed releases. Answers the hold as it ends. */
export function releaseLiveHold(tables: CalendarTables, id: string, now: number): Hold | null {
  expireHolds(tables, now);
  const current = tables.holds.find(id, now);
  if (current?.status !== "HELD") return current ?? null;
  const seat = tables.holds.seat(id);
  const claims = tables.holds.end(id, "RELEASED");
  if (seat) tables.tasks.release(seat.businessId, claims, now);
  tables.waitlist.holdEnded(id, "RELEASED", null, new Date(now).toISOString());
  return tables.holds.find(id, now) ?? null;
}
