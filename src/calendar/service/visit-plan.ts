/**
 * What a visit (or a series) claims: each segment's time, and the claims of the staffing picked
 * for it — its people and resources, and its seat when its service is another calendar's. A
 * segment of the entry's own service takes its seat here instead, in a tentative row of its own.
 */
import type { BookingRecord } from "../../domain/booking";
import type { ClaimNeed } from "../claim-types";
import type { Candidate } from "../claims/preference";
import { blockedSpan, type Span, segmentTimes } from "../rules/service-rules";
import type { VisitCommand, VisitSegment } from "../types";
import { claimNeeds, refsOf } from "./claiming";

/** Each segment's time: a series' own, or back to back. */
export const timesOf = (command: VisitCommand): Span[] =>
  command.series?.times ?? segmentTimes(command.startTime, command.segments);

/** Whether segment `i` takes its seat in the entry's own calendar (the first segment's service). */
export const isLocal = (command: VisitCommand, i: number) =>
  command.segments[i]?.service.id === command.segments[0]?.service.id;

/** One attempt's bookings and staffing, by segment. */
export type Staffed = { records: BookingRecord[]; staffed: Candidate[] };

/**
 * Ids of the visit's other segments whose staffing includes `calendarId`: a person (or a room)
 * is not blocked by their own visit, whichever of its segments is claimed first — a retry keeps
 * a later segment's granted claim while an earlier one is claimed anew.
 */
function ownVisit({ records, staffed }: Staffed, segment: number, calendarId: string): string[] {
  return staffed.flatMap((c, j) => {
    const ids = [...c.people.map((p) => p.id), ...c.resources.map((r) => r.id)];
    return j !== segment && ids.includes(calendarId) ? [(records[j] as BookingRecord).id] : [];
  });
}

/** What segment `i` claims: its people and resources, and (when another calendar's) its seat there. */
export function segmentNeeds(command: VisitCommand, current: Staffed, i: number, time: Span): ClaimNeed[] {
  const record = current.records[i] as BookingRecord;
  const candidate = current.staffed[i] as Candidate;
  const { service } = command.segments[i] as VisitSegment;
  const blocked = blockedSpan(service, time.start, time.end);
  const claimed = { serviceId: service.id, ...time, blocked, capacity: service.capacity };
  const own = claimNeeds(candidate, claimed, record.id, (id) => ownVisit(current, i, id));
  if (isLocal(command, i)) return own;
  const sameService = current.records.filter((r, j) => j !== i && r.serviceId === service.id).map((r) => r.id);
  const seat: ClaimNeed = {
    calendar: "service",
    id: service.id,
    claimId: record.id,
    command: {
      claimId: record.id,
      record,
      service,
      providerId: candidate.providerId,
      claims: refsOf(own),
      onGrid: command.series !== undefined,
      alongside: sameService,
    },
  };
  return [...own, seat];
}
