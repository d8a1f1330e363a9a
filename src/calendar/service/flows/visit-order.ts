/**
 * The order a visit tries the people of its segments of other services in: each such calendar
 * that assigns `balanced` is asked for its order before the claims start (an await, so a flow's,
 * never a step's). Only a preference: each seat is still decided when it is claimed.
 */
import type { Candidate } from "../../claims/preference";
import type { Span } from "../../rules/service-rules";
import { serviceCalendarOf } from "../../stubs";
import type { VisitCommand } from "../../types";
import { isLocal } from "../steps/segment-plan";

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
