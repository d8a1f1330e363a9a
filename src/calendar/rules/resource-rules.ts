/**
 * A resource's rule as a pure function (rule 8): every required resource is active, open then
 * (its own hours, or whenever its service is; its date overrides either way), and has a free
 * unit. Units are identical; the seats of one session (the same service at the same start, with
 * the same people) share one unit. Its calendar calls this inside its critical section, so it
 * does no I/O.
 */
import type { TimeInterval, WeeklySchedule, WorkingHours } from "../../types/schedule";
import type { ClaimRefusal, ClaimSpan, OverlappingClaim, ResourceSnapshot } from "../claim-types";
import { type WorkingCalendar, withinWorkingTime } from "./service-rules";

const wholeDay: TimeInterval[] = [{ start: "00:00", end: "24:00" }];
/** Open around the clock, every day: what a resource without hours of its own starts from. */
const aroundTheClock: WeeklySchedule = {
  mon: wholeDay,
  tue: wholeDay,
  wed: wholeDay,
  thu: wholeDay,
  fri: wholeDay,
  sat: wholeDay,
  sun: wholeDay,
};

/** Kept per snapshot: the slot calendar remembers working spans by the hours object (working-time-memo.ts). */
const derivedHours = new WeakMap<ResourceSnapshot, WorkingHours>();

/**
 * The hours a resource keeps, or null when it is open whenever a service using it is. With hours
 * of its own, those (its date overrides included). Without them, around the clock except on the
 * dates its overrides name, which keep it to their intervals (`[]`: closed): an override means
 * the same with or without own hours.
 */
function hoursOf(resource: ResourceSnapshot): WorkingHours | null {
  if (resource.weeklySchedule !== null) return resource as ResourceSnapshot & WorkingHours;
  if (resource.dateOverrides.length === 0) return null;
  let hours = derivedHours.get(resource);
  if (!hours) {
    hours = { timezone: resource.timezone, weeklySchedule: aroundTheClock, dateOverrides: resource.dateOverrides };
    derivedHours.set(resource, hours);
  }
  return hours;
}

/** Whether the resource's own hours (or date overrides) keep it open over `[start, end)`; active or not. */
export function openOver(resource: ResourceSnapshot, start: number, end: number): boolean {
  const hours = hoursOf(resource);
  return !hours || withinWorkingTime(hours, start, end);
}

/**
 * Why the resource cannot take this claim beside the `overlapping` live ones, or null; the
 * refusal says which people could still be granted it (`onlyWith`, see ClaimResult).
 * `calendar`: where local dates and spans come from (the slot calendar passes one that remembers them).
 */
export function checkResourceFree(
  resource: ResourceSnapshot,
  claim: Pick<ClaimSpan, "session" | "start" | "end">,
  overlapping: readonly Pick<OverlappingClaim, "session">[],
  calendar?: WorkingCalendar,
): ClaimRefusal | null {
  const nobody = { ok: false, reason: "resource_unavailable", onlyWith: [] as string[] } as const;
  if (!resource.active) return { ...nobody, detail: "The resource is not active." };
  const hours = hoursOf(resource);
  if (hours && !withinWorkingTime(hours, claim.start, claim.end, undefined, calendar)) {
    return { ...nobody, detail: "The resource is closed at that time." };
  }
  const sessions = new Set(overlapping.map((c) => c.session));
  if (sessions.has(claim.session) || sessions.size < resource.quantity) return null;
  const units = resource.quantity === 1 ? "Its unit is" : `All ${resource.quantity} units are`;
  // Other people make another session of this service at this start (`service@start#people`):
  // only the people of one already holding a unit would share it.
  const ours = claim.session.slice(0, claim.session.indexOf("#") + 1);
  const onlyWith = [...sessions].filter((s) => s.startsWith(ours)).map((s) => s.slice(ours.length));
  return { ok: false, reason: "resource_unavailable", detail: `${units} taken at that time.`, onlyWith };
}
