/**
 * Holds in the service's calendar: placing one (the rules of a booking, then a seat until the
 * expiry; with people, a tentative seat while their calendars claim the time), and turning one
 * into a booking in a single transaction, so the seat is never free in between.
 */
import type { Hold } from "../../../types/hold";
import type { ClaimRef } from "../../claim-types";
import { type Candidate, candidatesFor } from "../../claims/preference";
import { type Attempt, type Next, type Phases, phases, type Refused, runClaims } from "../../claims/run-claims";
import { assignOrder, periodRefusal } from "../../limits/service-checks";
import { blockedSpan, checkRequest } from "../../rules/service-rules";
import type { CalendarRefusal, HoldCommand, HoldResult } from "../../types";
import { firstWithSeat, noCandidateLeft, noSeat, singleWay, type Tries, triesAfter } from "../steps/candidates";
import { claimFor, claimNeeds, noAnswer, tooLate } from "../steps/claiming";
import { expireHolds } from "../steps/expiry";
import { pageShareRefusal } from "../steps/live-slots";
import type { CalendarTables, FlowDeps } from "../tables/tables";

/** A person's claim for a hold outlives the hold by this much, so a conversion can confirm it in time. */
export const HOLD_CLAIM_GRACE_MS = 5 * 60_000;

const refused = (refusal: CalendarRefusal): Next<HoldResult> => ({ kind: "done", result: { ok: false, refusal } });

/** A hold's flow: the calendar's tables, the request, and the ways to assign it in order. */
export type HoldFlow = { tables: CalendarTables; command: HoldCommand; candidates: Candidate[] };

/**
 * A hold: the seat (and people) kept until its expiry. Awaits its candidates (their calendars
 * read), then the claim protocol, whose phases below each run in one transaction.
 */
export async function createHoldFlow(deps: FlowDeps, command: HoldCommand): Promise<HoldResult> {
  const { storage, env, tables: t } = deps;
  const { service, providerId, startTime } = command;
  const candidates = await candidatesFor(env, service, command, providerId, startTime);
  return runClaims(storage, env, holding, { tables: t, command, candidates });
}

/** The checks of a hold, then its seat for the first candidate with one. Inside the caller's transaction. */
export function beginHold({ tables, command, candidates }: HoldFlow, now: number): Next<HoldResult> {
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

function seatNext(flow: HoldFlow, { tried, last }: Tries, now: number): Next<HoldResult> {
  const { tables, command, candidates } = flow;
  const { service } = command;
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const blocked = blockedSpan(service, start, end);
  const ordered = assignOrder(tables.counts, service, candidates, start);
  const candidate = firstWithSeat(tables.reservations.seats, service, ordered, blocked, tried);
  if (!candidate) {
    const result: HoldResult = { ok: false, refusal: noCandidateLeft(singleWay(command), last, candidates) };
    return noSeat(tables.reservations.seats, ordered, blocked, tried, result);
  }
  // Checked where the hold is placed, in the same transaction: page holds already placed count.
  const page = command.page === true;
  const share = page ? pageShareRefusal(tables, service, start, blocked, now) : null;
  if (share) return refused(share);
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
    tables.holds.place(hold, service.businessId, blocked, undefined, page);
    tables.alarm.arm(expiresAt);
    return { kind: "done", result: { ok: true, hold } };
  }
  const row = { rowId: hold.id, businessId: service.businessId, needs };
  return claimFor(tables, row, candidate, tried, now, (tentative) =>
    tables.holds.place(hold, service.businessId, blocked, tentative, page),
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
export function retryHold(flow: HoldFlow, attempt: Attempt, refusal: Refused, now: number): Next<HoldResult> {
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
