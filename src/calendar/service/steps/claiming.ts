/**
 * A candidate's claims in other calendars, made from the service's calendar: what its booking
 * claims, the tentative row that waits for them, and the refusals when they are not answered.
 * All synchronous, inside the caller's transaction.
 */
import {
  type ClaimedKind,
  type ClaimRef,
  claimOrder,
  type ProviderSnapshot,
  type ResourceSnapshot,
  sessionOf,
  type TimeNeed,
} from "../../claim-types";
import type { Candidate } from "../../claims/preference";
import { type Attempt, type Next, TENTATIVE_MS } from "../../claims/run-claims";
import type { Span } from "../../rules/service-rules";
import type { CalendarRefusal, CalendarResult } from "../../types";
import type { CalendarTables } from "../tables/tables";
import { candidateKey } from "./candidates";

/** A booking's `[start, end)`, epoch milliseconds. */
export type Interval = { start: number; end: number };

/** The booking a claim is made for. */
export type ClaimedTime = {
  serviceId: string;
  start: number;
  end: number;
  blocked: Span;
  capacity: number;
  /** A hold's claims expire by themselves (later than the hold). */
  expiresAt?: number | null;
  /** A move: the claims `alongside` names are the booking's own, which the move replaces. */
  moving?: boolean;
};

/**
 * What a candidate's booking claims in other calendars, in the global order, under `claimId`;
 * `alongside(ref)` names the claim a moved booking already holds there (not counted against it).
 */
export function claimNeeds(
  candidate: Candidate,
  time: ClaimedTime,
  claimId: string,
  alongside: (calendarId: string) => string | string[] | null = () => null,
): TimeNeed[] {
  const providers = candidate.providers.map((p) => p.id);
  const span = (calendar: ClaimedKind, id: string) => ({
    claimId,
    serviceId: time.serviceId,
    session: sessionOf(calendar, time.serviceId, time.start, providers),
    start: time.start,
    end: time.end,
    blockedStart: time.blocked.start,
    blockedEnd: time.blocked.end,
    capacity: time.capacity,
    expiresAt: time.expiresAt ?? null,
    alongside: alongside(id),
    ...(time.moving ? { replaces: [alongside(id)].flat()[0] ?? null } : {}),
  });
  const need = (calendar: ClaimedKind, settings: ProviderSnapshot | ResourceSnapshot) =>
    ({ calendar, id: settings.id, claimId, command: { ...span(calendar, settings.id), settings } }) as TimeNeed;
  const needs = [
    ...candidate.providers.map((provider) => need("provider", provider)),
    ...candidate.resources.map((resource) => need("resource", resource)),
  ];
  return needs.sort(claimOrder);
}

/** The references of a row's claims, as it stores them. */
export const refsOf = (needs: { calendar: ClaimRef["calendar"]; id: string; claimId: string }[]): ClaimRef[] =>
  needs.map(({ calendar, id, claimId }) => ({ calendar, id, claimId }));

/**
 * A row that waits for its claims: `place` writes it tentative with its claims and deadline, the
 * deadline is armed, and the attempt to make is answered. Inside the caller's transaction.
 */
export function claimFor<R>(
  tables: CalendarTables,
  row: Pick<Attempt, "rowId" | "businessId" | "needs">,
  candidate: Candidate,
  tried: string[],
  now: number,
  place: (tentative: { claims: ClaimRef[]; tentativeUntil: number }) => void,
): Next<R> {
  place({ claims: refsOf(row.needs), tentativeUntil: now + TENTATIVE_MS });
  tables.alarm.arm(now + TENTATIVE_MS);
  return { kind: "claim", attempt: { ...row, tried: [...tried, candidateKey(candidate)] } };
}

/** A row whose deadline passed before its claims were answered: the request is answered as unavailable. */
export const tooLate = (what: string): CalendarRefusal => ({
  code: "unavailable",
  detail: `The ${what} took too long to confirm; nothing was changed. Retry.`,
});

/** A claimed calendar that did not answer: nothing is held. */
export const noAnswer = (what: string): CalendarRefusal => ({
  code: "unavailable",
  detail: `A calendar the ${what} needs did not answer; nothing was changed. Retry.`,
});

/** A calendar did not answer: the tentative booking or move row goes and every claim it may have made is released. */
export const abandonTentative =
  (what: "booking" | "move") =>
  ({ tables }: { tables: CalendarTables }, attempt: Attempt, claims: ClaimRef[], now: number): CalendarResult => {
    tables.reservations.removeTentative(attempt.rowId);
    tables.tasks.release(attempt.businessId, claims, now);
    return { ok: false, refusal: noAnswer(what) };
  };
