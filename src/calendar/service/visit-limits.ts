/**
 * Booking limits and balanced assignment for a visit's (or a series') segments: those of the
 * entry's own service are decided here, each counting the segments before it; a segment of
 * another service is decided by that service's calendar when its seat is claimed (seat-claims.ts),
 * which is also asked beforehand for the order of its people when it assigns them `balanced`.
 */
import type { Candidate } from "../claims/preference";
import type { Span } from "../rules/service-rules";
import { serviceCalendarOf } from "../stubs";
import type { CalendarRefusal, VisitCommand } from "../types";
import { assignOrder, customerRefusal, periodRefusal } from "./limits";
import type { CalendarTables } from "./tables";
import { isLocal } from "./visit-plan";

/** The first segment of the entry's service over a limit, with the refusal, or null. */
export function visitLimitRefusal(
  tables: CalendarTables,
  command: VisitCommand,
  times: Span[],
  now: number,
): { refusal: CalendarRefusal; segment: number } | null {
  const starts: number[] = [];
  for (const [i, { service }] of command.segments.entries()) {
    if (!isLocal(command, i)) continue;
    const start = (times[i] as Span).start;
    const refusal =
      periodRefusal(tables.counts, service, start, { starts }) ??
      customerRefusal(tables.counts, service, command.customer.customerEmail, now, starts.length);
    if (refusal) return { refusal, segment: i };
    starts.push(start);
  }
  return null;
}

/** Segment `i`'s candidates (of the entry's service) in its assignment order, after those `staffed` before it. */
export function localOrder(
  tables: CalendarTables,
  command: VisitCommand,
  i: number,
  candidates: Candidate[],
  staffed: Candidate[],
  times: Span[],
): Candidate[] {
  const { service } = command.segments[i] as VisitCommand["segments"][number];
  const earlier = staffed.flatMap((c, j) =>
    isLocal(command, j) ? [{ providerId: c.providerId, start: (times[j] as Span).start }] : [],
  );
  return assignOrder(tables.counts, service, candidates, (times[i] as Span).start, earlier);
}

/** Each segment of another service that assigns `balanced`, its candidates in that calendar's order. */
export async function remoteOrder(env: Env, command: VisitCommand, candidates: Candidate[][], times: Span[]) {
  return Promise.all(
    candidates.map(async (list, i) => {
      const segment = command.segments[i] as VisitCommand["segments"][number];
      if (isLocal(command, i) || segment.service.assignment !== "balanced" || list.length < 2) return list;
      if (list.some((c) => c.providerId === null)) return list;
      const { service } = segment;
      const ids = list.map((c) => c.providerId as string);
      const order = await serviceCalendarOf(env, service.businessId, service.id)
        .assignmentOrder(service, ids, (times[i] as Span).start)
        .catch(() => ids);
      return order.flatMap((id) => list.filter((c) => c.providerId === id));
    }),
  );
}
