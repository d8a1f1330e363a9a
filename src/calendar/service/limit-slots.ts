/**
 * The slot calendar's view of a service's limits: which slots start on a day or in a week that
 * holds as many bookings as the service allows. One read of the counts for every week the slots
 * touch (limit-counts.ts `startsIn`), summed per day and week once, then a walk over the slots
 * in order — never a count per slot.
 */
import { daysOver, roomFor, type ServiceLimitSettings, weeksOver } from "../rules/limits";
import type { Span } from "../rules/service-rules";
import type { LimitCounts } from "./limit-counts";
import { hasPeriodLimits } from "./limits";

/** The first index of `sorted` whose value is at least `x`. */
function lowerBound(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * For each of `starts` (slot starts, ascending), whether one more booking starting then would be
 * over the service's limit per day or per week; null when the service has neither.
 */
export function closedByLimits(
  counts: LimitCounts,
  service: ServiceLimitSettings & { timezone: string },
  starts: number[],
): boolean[] | null {
  const { limits, timezone } = service;
  if (!limits || !hasPeriodLimits(service) || starts.length === 0) return null;
  const first = starts[0] as number;
  const end = (starts.at(-1) as number) + 1;
  const weeks = weeksOver(first, end, timezone);
  const days = daysOver(first, end, timezone);
  const rows = counts.startsIn({ start: (weeks[0] as Span).start, end: (weeks.at(-1) as Span).end });
  const at = rows.map((r) => r.at);
  const prefix = [0];
  for (const r of rows) prefix.push((prefix.at(-1) as number) + r.n);
  const held = (span: Span) =>
    (prefix[lowerBound(at, span.end)] as number) - (prefix[lowerBound(at, span.start)] as number);
  const dayFull = days.map((day) => !roomFor(limits.perDay, held(day)));
  const weekFull = weeks.map((week) => !roomFor(limits.perWeek, held(week)));
  let d = 0;
  let w = 0;
  return starts.map((start) => {
    while (start >= (days[d] as Span).end) d++;
    while (start >= (weeks[w] as Span).end) w++;
    return (dayFull[d] as boolean) || (weekFull[w] as boolean);
  });
}
