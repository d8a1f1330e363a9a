/**
 * Staffing a booking inside the service's calendar: which candidate still has a seat here, and
 * the refusal when none is left. All synchronous.
 */

import type { Refused } from "../claims/flow";
import type { Candidate } from "../claims/preference";
import type { Span } from "../rules/service-rules";
import type { CalendarRefusal, ServiceSnapshot } from "../types";
import type { Except, Seats } from "./seats";

/** The candidates tried so far, and the refusal of the last one. */
export type Tries = { tried: string[]; last?: Refused };

/** The key a candidate is remembered by among those tried. */
export const candidateKey = (candidate: Candidate) => candidate.providerId ?? "";

/** The first candidate not yet tried whose session here still has a seat over `blocked`. */
export function firstWithSeat(
  seats: Seats,
  service: Pick<ServiceSnapshot, "capacity">,
  candidates: Candidate[],
  blocked: Span,
  tried: string[],
  except: Except = [],
): Candidate | undefined {
  return candidates.find((candidate) => {
    if (tried.includes(candidateKey(candidate))) return false;
    const taken =
      candidate.providerId === null
        ? seats.holding(blocked, except).length
        : seats.takenFor(candidate.providerId, blocked, except);
    return taken < service.capacity;
  });
}

/**
 * Why nobody could take the booking: with one way to staff it (the provider asked for, a team,
 * or no providers) that way's own refusal, else — automatic assignment — no provider available,
 * or, when every person asked refused at their daily limit, `limit_reached`.
 */
export function noCandidateLeft(single: boolean, last: Refused | undefined): CalendarRefusal {
  if (single) {
    if (last) return { code: "slot_unavailable", reason: last.reason, detail: last.detail };
    return { code: "slot_unavailable", reason: "fully_booked", detail: "This slot (or session) is fully booked." };
  }
  if (last?.reasons?.every((reason) => reason === "limit_reached")) {
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
