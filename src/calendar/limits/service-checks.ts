/**
 * A service's booking limits and balanced assignment, decided in the calendar's transaction that
 * takes the seat, against counts that include every row holding one — live holds, tentative rows
 * of bookings still claiming people, moves' new times — so a concurrent burst cannot pass a limit
 * and concurrent unnamed bookings spread (docs/consistency.md, "Booking limits"). All synchronous.
 */
import type { Candidate } from "../claims/preference";
import type { Span } from "../rules/service-rules";
import type { CalendarRefusal, ServiceLimitSettings } from "../types";
import type { LimitCounts } from "./counts";
import { dayOf, limitDetails, periodReached, weekOf } from "./day-and-week";

/** What the limits need of a service: its limits, and the zone its days and weeks are in. */
export type LimitedService = ServiceLimitSettings & { timezone: string };

/**
 * What else the request holds when a limit is checked: starts it takes before it commits (a
 * visit's or a series' earlier segments of this service, not rows yet), and the start of the
 * booking it moves (its row is counted now, and it will not be after the move).
 */
export type Also = { starts?: readonly number[]; moving?: number };

const within = (span: Span) => (at: number) => at >= span.start && at < span.end;
const refusal = (detail: string): CalendarRefusal => ({ code: "slot_unavailable", reason: "limit_reached", detail });

/** Whether a service has a limit per day or per week. */
export const hasPeriodLimits = (service: LimitedService) =>
  service.limits?.perDay != null || service.limits?.perWeek != null;

/** The refusal of one more booking starting at `start` when its day or week is at the service's limit, or null. */
export function periodRefusal(
  counts: LimitCounts,
  service: LimitedService,
  start: number,
  also: Also = {},
): CalendarRefusal | null {
  const { limits } = service;
  if (!limits || !hasPeriodLimits(service)) return null;
  const held = (span: Span) => {
    const inside = within(span);
    const more = (also.starts ?? []).filter(inside).length;
    return counts.starting(span) + more - (also.moving !== undefined && inside(also.moving) ? 1 : 0);
  };
  const counted = {
    day: limits.perDay == null ? 0 : held(dayOf(start, service.timezone)),
    week: limits.perWeek == null ? 0 : held(weekOf(start, service.timezone)),
  };
  const reached = periodReached(limits, counted);
  return reached ? refusal(limitDetails[reached](limits[reached] as number)) : null;
}

/**
 * The refusal of one more upcoming booking for the customer's e-mail when they hold the most the
 * service allows, or null. `earlier`: their bookings this request makes before this one.
 */
export function customerRefusal(
  counts: LimitCounts,
  service: LimitedService,
  email: string,
  now: number,
  earlier = 0,
): CalendarRefusal | null {
  const max = service.maxActivePerCustomer;
  if (max == null || counts.upcomingOf(email, now) + earlier < max) return null;
  return refusal(limitDetails.customer(max));
}

/** Both limits of a new booking: the service's day and week, then the customer's. */
export function newBookingRefusal(
  counts: LimitCounts,
  service: LimitedService,
  booking: { start: number; email: string },
  now: number,
): CalendarRefusal | null {
  return periodRefusal(counts, service, booking.start) ?? customerRefusal(counts, service, booking.email, now);
}

/**
 * The candidates of an unnamed booking in the order its service assigns them: as given (`first`),
 * or `balanced`: fewest rows of the service in the booking's ISO week first, then the one last
 * given a booking of it longest ago (never first), then as given. `earlier`: people this request
 * gave its earlier segments to (a series), counted as booked then and last.
 */
export function assignOrder(
  counts: LimitCounts,
  service: LimitedService,
  candidates: Candidate[],
  start: number,
  earlier: readonly { providerId: string | null; start: number }[] = [],
): Candidate[] {
  if (service.assignment !== "balanced" || candidates.length < 2) return candidates;
  const providers = candidates.flatMap((c) => (c.providerId ? [c.providerId] : []));
  if (providers.length < candidates.length) return candidates;
  const week = weekOf(start, service.timezone);
  const load = counts.startingPer(providers, week);
  const made = counts.madeOrder(providers);
  let last = Math.max(0, ...made.values());
  for (const pick of earlier) {
    if (!pick.providerId) continue;
    if (within(week)(pick.start)) load.set(pick.providerId, (load.get(pick.providerId) ?? 0) + 1);
    made.set(pick.providerId, ++last);
  }
  const ranked = candidates.map((candidate, i) => {
    const id = candidate.providerId as string;
    return { candidate, i, load: load.get(id) ?? 0, made: made.get(id) ?? 0 };
  });
  ranked.sort((a, b) => a.load - b.load || a.made - b.made || a.i - b.i);
  return ranked.map((r) => r.candidate);
}
