/**
 * Staffing a booking inside the service's calendar: which candidate still has a seat here, what
 * its booking claims in other calendars, and the refusal when none is left. All synchronous.
 */

import { type ClaimNeed, type ClaimRef, claimOrder, sessionOf } from "../claim-types";
import { type Attempt, type Refused, type Step, TENTATIVE_MS } from "../claims/flow";
import type { Candidate } from "../claims/preference";
import type { Span } from "../rules/service-rules";
import type { CalendarRefusal, ServiceSnapshot } from "../types";
import type { Seats } from "./seats";
import type { CalendarTables } from "./tables";

/** The key a candidate is remembered by among those tried. */
export const candidateKey = (candidate: Candidate) => candidate.providerId ?? "";

/** The first candidate not yet tried whose session here still has a seat over `blocked`. */
export function firstWithSeat(
  seats: Seats,
  service: ServiceSnapshot,
  candidates: Candidate[],
  blocked: Span,
  tried: string[],
  exceptId = "",
): Candidate | undefined {
  return candidates.find((candidate) => {
    if (tried.includes(candidateKey(candidate))) return false;
    const taken =
      candidate.providerId === null
        ? seats.holding(blocked, exceptId).length
        : seats.takenFor(candidate.providerId, blocked, exceptId);
    return taken < service.capacity;
  });
}

/** The appointment a claim is made for. */
export type ClaimedTime = {
  serviceId: string;
  start: number;
  end: number;
  blocked: Span;
  capacity: number;
  /** A hold's claims expire by themselves (later than the hold). */
  expiresAt?: number | null;
};

/**
 * What a candidate's booking claims in other calendars, in the global order, under `claimId`;
 * `alongside(ref)` names the claim a moved booking already holds there (not counted against it).
 */
export function claimNeeds(
  candidate: Candidate,
  time: ClaimedTime,
  claimId: string,
  alongside: (calendarId: string) => string | null = () => null,
): ClaimNeed[] {
  const people = candidate.people.map((p) => p.id);
  const span = (calendar: "provider" | "resource", id: string) => ({
    claimId,
    serviceId: time.serviceId,
    session: sessionOf(calendar, time.serviceId, time.start, people),
    start: time.start,
    end: time.end,
    blockedStart: time.blocked.start,
    blockedEnd: time.blocked.end,
    capacity: time.capacity,
    expiresAt: time.expiresAt ?? null,
    alongside: alongside(id),
  });
  const needs: ClaimNeed[] = [
    ...candidate.people.map(
      (settings): ClaimNeed => ({
        calendar: "provider",
        id: settings.id,
        claimId,
        command: { ...span("provider", settings.id), settings },
      }),
    ),
    ...candidate.resources.map(
      (settings): ClaimNeed => ({
        calendar: "resource",
        id: settings.id,
        claimId,
        command: { ...span("resource", settings.id), settings },
      }),
    ),
  ];
  return needs.sort(claimOrder);
}

/**
 * Why nobody could take the booking: with one way to staff it (the provider asked for, a team,
 * or no providers) that way's own refusal, else — automatic assignment — no provider available.
 */
export function noCandidateLeft(single: boolean, last: Refused | undefined): CalendarRefusal {
  if (single) {
    if (last) return { code: "slot_unavailable", reason: last.reason, detail: last.detail };
    return { code: "slot_unavailable", reason: "fully_booked", detail: "This slot (or session) is fully booked." };
  }
  return {
    code: "slot_unavailable",
    reason: "no_provider_available",
    detail: "None of the service's providers is free at that time.",
  };
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

/** The references of a row's claims, as it stores them. */
export const refsOf = (needs: { calendar: ClaimRef["calendar"]; id: string; claimId: string }[]): ClaimRef[] =>
  needs.map(({ calendar, id, claimId }) => ({ calendar, id, claimId }));

/** Whether a booking has one way to be staffed (asked provider, team, or no providers): refusals keep their reason. */
export const singleWay = (command: {
  service: { providerMode?: string };
  providers?: unknown[];
  providerId?: string | null;
}) =>
  !command.providers ||
  command.providers.length === 0 ||
  !!command.providerId ||
  command.service.providerMode === "all";

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
): Step<R> {
  place({ claims: refsOf(row.needs), tentativeUntil: now + TENTATIVE_MS });
  tables.alarm.arm(now + TENTATIVE_MS);
  return { kind: "claim", attempt: { ...row, tried: [...tried, candidateKey(candidate)] } };
}
