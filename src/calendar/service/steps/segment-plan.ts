/**
 * What a visit (or a series) claims: each segment's time, and the claims of the staffing picked
 * for it — its people and resources, and its seat when its service is another calendar's. A
 * segment of the entry's own service takes its seat here instead, in a tentative row of its own.
 */
import type { BookingRecord } from "../../../types/booking";
import type { ClaimNeed } from "../../claim-types";
import type { Candidate } from "../../claims/preference";
import { blockedSpan, checkRequest, type Span, segmentTimes, withinWorkingTime } from "../../rules/service-rules";
import type { CalendarRefusal, VisitCommand, VisitSegment } from "../../types";
import type { Reservations } from "../tables/reservations";
import { claimNeeds, refsOf } from "./claiming";

/** Each segment's time: a series' own, or back to back. */
export const timesOf = (command: VisitCommand): Span[] =>
  command.series?.times ?? segmentTimes(command.startTime, command.segments);

/** What each segment's candidates are read for: its service, staffing and start. */
export const segmentAssignees = (command: VisitCommand) => {
  const times = timesOf(command);
  return command.segments.map((segment, i) => ({
    service: segment.service,
    staffing: segment,
    providerId: segment.providerId,
    startTime: new Date(times[i]?.start ?? 0).toISOString(),
  }));
};

/** Whether segment `i` takes its seat in the entry's own calendar (the first segment's service). */
export const isLocal = (command: VisitCommand, i: number) =>
  command.segments[i]?.service.id === command.segments[0]?.service.id;

/** The segments whose seats are the entry's own calendar's. */
export const localSegments = (command: VisitCommand) =>
  command.segments.flatMap((_, i) => (isLocal(command, i) ? [i] : []));

/** Drops an attempt's tentative rows of the entry's own segments. */
export function dropLocalRows(reservations: Reservations, command: VisitCommand, records?: readonly BookingRecord[]) {
  for (const i of localSegments(command)) reservations.removeTentative(records?.[i]?.id ?? "");
}

/** A later segment of a visit outside its service's working hours. */
export const OUTSIDE_HOURS: CalendarRefusal = {
  code: "slot_unavailable",
  reason: "outside_working_hours",
  detail: "The segment's time is not inside its service's working hours.",
};

/**
 * Why segment `i` cannot be at its time by its own service's rules (a series' occurrences: every
 * rule; a visit's later segments: hours only), with the segment to name (none for the first's
 * invalid input); null when it can.
 */
export function segmentRefusal(command: VisitCommand, i: number, time: Span, now: number) {
  const { service } = command.segments[i] as VisitSegment;
  if (i > 0 && !command.series) {
    return withinWorkingTime(service, time.start, time.end) ? null : { refusal: OUTSIDE_HOURS, segment: i };
  }
  const violation = checkRequest(service, time.start, time.end, now);
  if (!violation) return null;
  if (violation.kind === "invalid") {
    const refusal: CalendarRefusal = { code: "validation_failed", ...violation };
    return { refusal, segment: i === 0 ? undefined : i };
  }
  const refusal: CalendarRefusal = { code: "slot_unavailable", reason: violation.reason, detail: violation.detail };
  return { refusal, segment: i };
}

/** One attempt's bookings and staffing, by segment. */
export type SegmentAssignees = { records: BookingRecord[]; assignees: Candidate[] };

/**
 * Ids of the visit's other segments whose staffing includes `calendarId`: a person (or a room)
 * is not blocked by their own visit, whichever of its segments is claimed first — a retry keeps
 * a later segment's granted claim while an earlier one is claimed anew.
 */
function ownVisit({ records, assignees }: SegmentAssignees, segment: number, calendarId: string): string[] {
  return assignees.flatMap((c, j) => {
    const ids = [...c.providers.map((p) => p.id), ...c.resources.map((r) => r.id)];
    return j !== segment && ids.includes(calendarId) ? [(records[j] as BookingRecord).id] : [];
  });
}

/** What segment `i` claims: its people and resources, and (when another calendar's) its seat there. */
export function segmentNeeds(command: VisitCommand, current: SegmentAssignees, i: number, time: Span): ClaimNeed[] {
  const record = current.records[i] as BookingRecord;
  const candidate = current.assignees[i] as Candidate;
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
