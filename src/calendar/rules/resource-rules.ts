/**
 * A resource's rule as a pure function (rule 8): every required resource is active, open then,
 * and has a free unit. Units are identical; the seats of one session (the same service at the
 * same start, with the same people) share one unit. Its calendar calls this inside its critical
 * section, so it does no I/O.
 */
import type { WorkingHours } from "../../domain/schedule";
import type { ClaimRefusal, ClaimSpan, OverlappingClaim, ResourceSnapshot } from "../claim-types";
import { type WorkingCalendar, withinWorkingTime } from "./service-rules";

/** A resource with hours of its own is itself the working hours `withinWorkingTime` reads. */
const hasOwnHours = (resource: ResourceSnapshot): resource is ResourceSnapshot & WorkingHours =>
  resource.weeklySchedule !== null;

/**
 * Why the resource cannot take this claim beside the `overlapping` live ones, or null.
 * `calendar`: where local dates and spans come from (the slot calendar passes one that remembers them).
 */
export function checkResourceFree(
  resource: ResourceSnapshot,
  claim: Pick<ClaimSpan, "session" | "start" | "end">,
  overlapping: readonly Pick<OverlappingClaim, "session">[],
  calendar?: WorkingCalendar,
): ClaimRefusal | null {
  if (!resource.active) return { ok: false, reason: "resource_unavailable", detail: "The resource is not active." };
  if (hasOwnHours(resource) && !withinWorkingTime(resource, claim.start, claim.end, undefined, calendar)) {
    return { ok: false, reason: "resource_unavailable", detail: "The resource is closed at that time." };
  }
  const sessions = new Set(overlapping.map((c) => c.session));
  if (sessions.has(claim.session) || sessions.size < resource.quantity) return null;
  const units = resource.quantity === 1 ? "Its unit is" : `All ${resource.quantity} units are`;
  return { ok: false, reason: "resource_unavailable", detail: `${units} taken at that time.` };
}
