/**
 * Booking limits and balanced assignment for a visit's (or a series') segments: those of the
 * entry's own service are decided here, each counting the segments before it; a segment of
 * another service is decided by that service's calendar when its seat is claimed (seat-claims.ts),
 * which is also asked beforehand for the order of its people when it assigns them `balanced`
 * (flows/visit-order.ts).
 */

import type { Candidate } from "../../claims/preference";
import type { Next } from "../../claims/run-claims";
import { assignOrder, customerRefusal, periodRefusal } from "../../limits/service-checks";
import type { Span } from "../../rules/service-rules";
import type { CalendarRefusal, VisitCommand, VisitResult } from "../../types";
import type { CalendarTables } from "../tables/tables";
import { isLocal, timesOf } from "./segment-plan";

/**
 * The refusal of a visit with a segment of the entry's service over a limit, or null. Each
 * segment counts the ones before it that are within the limits, and every segment over one is
 * named (`unstaffed`, the first as the refusal's): a series that skips conflicts then skips them
 * all in one retry, where naming one per try would run out of tries.
 */
export function visitLimitStep(
  tables: CalendarTables,
  command: VisitCommand,
  times: Span[],
  now: number,
): Next<VisitResult> | null {
  const starts: number[] = [];
  const over: { segment: number; refusal: CalendarRefusal }[] = [];
  for (const [i, { service }] of command.segments.entries()) {
    if (!isLocal(command, i)) continue;
    const start = (times[i] as Span).start;
    const refusal =
      periodRefusal(tables.counts, service, start, { starts }) ??
      customerRefusal(tables.counts, service, command.customer.customerEmail, now, starts.length);
    if (refusal) over.push({ segment: i, refusal });
    else starts.push(start);
  }
  const [first] = over;
  if (!first) return null;
  const unassignable = over.map(({ segment, refusal }) => ({
    segment,
    reason: "reason" in refusal ? refusal.reason : "",
  }));
  return { kind: "done", result: { ok: false, refusal: first.refusal, segment: first.segment, unassignable } };
}

/** The order each flow's segments were given in its first attempt, by segment. */
const decided = new WeakMap<object, Map<number, Candidate[]>>();

/**
 * Segment `i`'s candidates in its service's assignment order, after the segments `staffed`
 * before it; a segment of another service keeps its order (flows/visit-order.ts). Decided in the
 * visit's first attempt and kept for its retries, as an order decided before the flow is: a
 * retry that gave a segment back to a person whose claim for it the attempt before released
 * (a release is sent once the flow ends) would find that person busy with their own claim.
 */
export function localOrder(
  flow: { tables: CalendarTables; command: VisitCommand; candidates: Candidate[][] },
  i: number,
  assignees: readonly Candidate[],
): Candidate[] {
  const { tables, command } = flow;
  const candidates = flow.candidates[i] ?? [];
  const kept = decided.get(flow) ?? new Map<number, Candidate[]>();
  decided.set(flow, kept);
  const known = kept.get(i);
  if (known) return known;
  // Once an earlier segment found nobody the visit is refused: no order to keep.
  if (!isLocal(command, i) || assignees.length !== i) return candidates;
  const times = timesOf(command);
  const { service } = command.segments[i] as VisitCommand["segments"][number];
  const earlier = assignees.flatMap((c, j) =>
    isLocal(command, j) ? [{ providerId: c.providerId, start: (times[j] as Span).start }] : [],
  );
  const order = assignOrder(tables.counts, service, candidates, (times[i] as Span).start, earlier);
  kept.set(i, order);
  return order;
}

/** The refusal reasons of a service's own seat that no other person can change. */
export const serviceFinal: ReadonlySet<string> = new Set(["outside_working_hours", "limit_reached"]);
