/**
 * Assignees a booking inside the service's calendar: which candidate still has a seat here, and
 * the refusal when none is left. All synchronous.
 */

import type { Candidate } from "../../claims/preference";
import type { Attempt, Next, Refusal, Refused } from "../../claims/run-claims";
import type { Span } from "../../rules/service-rules";
import type { CalendarRefusal, ServiceSnapshot } from "../../types";
import type { Except, Seats } from "../tables/seats";

/** The candidates tried so far, and the refusal of the last one (with who was at their limit so far). */
export type Tries = { tried: string[]; last?: Refusal & Pick<Refused, "limited"> };

/** The key a candidate is remembered by among those tried. */
export const candidateKey = (candidate: Candidate) => candidate.providerId ?? "";

/** A candidate's people as a claimed calendar's sessions name them: ids sorted, joined by commas. */
export const providersKey = (candidate: Candidate) =>
  candidate.providers
    .map((p) => p.id)
    .sort()
    .join(",");

/**
 * The keys of the candidates a refusal rules out besides the one refused: with `onlyWith`, every
 * candidate whose people are not among those the calendar could still grant the time to.
 */
export const ruledOut = (candidates: Candidate[], refusal: Pick<Refusal, "onlyWith">): string[] => {
  const { onlyWith } = refusal;
  return onlyWith ? candidates.filter((c) => !onlyWith.includes(providersKey(c))).map(candidateKey) : [];
};

/** What was tried after a refusal: the candidates tried, and those the refusal rules out alike. */
export const triesAfter = (attempt: Pick<Attempt, "tried">, refusal: Refused, candidates: Candidate[]): Tries => ({
  tried: [...attempt.tried, ...ruledOut(candidates, refusal)],
  last: refusal,
});

/** The first candidate not yet tried, for which `fits`. */
export const untried = (
  candidates: Candidate[],
  tried: string[],
  fits: (candidate: Candidate) => boolean = () => true,
) => {
  const done = new Set(tried);
  return candidates.find((c) => !done.has(candidateKey(c)) && fits(c));
};

/** The first candidate not yet tried whose session here still has a seat over `blocked`. */
export function firstWithSeat(
  seats: Seats,
  service: Pick<ServiceSnapshot, "capacity">,
  candidates: Candidate[],
  blocked: Span,
  tried: string[],
  except: Except = [],
): Candidate | undefined {
  return untried(candidates, tried, (candidate) => {
    const taken =
      candidate.providerId === null
        ? seats.holding(blocked, except).length
        : seats.takenFor(candidate.providerId, blocked, except);
    return taken < service.capacity;
  });
}

/**
 * No candidate has a seat over `blocked`: the refusal `result` — but on the first try, with
 * siblings' tentative rows among those holding the seats, a wait for them (run-claims.ts): one
 * refused elsewhere frees its seat, so "fully booked" may not be the true reason.
 */
export function noSeat<R>(seats: Seats, candidates: Candidate[], blocked: Span, tried: string[], result: R): Next<R> {
  if (tried.length > 0) return { kind: "done", result };
  const rows = seats.tentative(
    blocked,
    candidates.map((c) => c.providerId),
  );
  return rows.length > 0 ? { kind: "wait", rows, result } : { kind: "done", result };
}

/**
 * Why nobody could take the booking: with one way to staff it (the provider asked for, a team,
 * or no providers) that way's own refusal, else — automatic assignment — no provider available,
 * or `limit_reached` when every one of the `candidates` refused at their daily limit.
 */
export function noCandidateLeft(
  single: boolean,
  last: (Pick<Refusal, "reason" | "detail"> & Pick<Refused, "limited">) | undefined,
  candidates: readonly Candidate[] = [],
): CalendarRefusal {
  if (single) {
    if (last) return { code: "slot_unavailable", reason: last.reason, detail: last.detail };
    return { code: "slot_unavailable", reason: "fully_booked", detail: "This slot (or session) is fully booked." };
  }
  const limited = new Set(last?.limited ?? []);
  if (candidates.length > 0 && candidates.every((c) => c.providerId !== null && limited.has(c.providerId))) {
    const detail = "Every provider free then has as many bookings that day as they take.";
    return { code: "slot_unavailable", reason: "limit_reached", detail };
  }
  return {
    code: "slot_unavailable",
    reason: "no_provider_available",
    detail: "None of the service's providers is free at that time.",
  };
}

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
