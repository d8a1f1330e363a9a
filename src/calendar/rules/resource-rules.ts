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
 * Why the resource cannot take this claim beside the `overlapping` live ones, or null; the
 * refusal says which people could still be granted it (`onlyWith`, see ClaimResult). `calendar`: where local dates and spans come from (the slot calendar passes one that remembers them).
 */
export function checkResourceFree(
  resource: ResourceSnapshot,
  claim: Pick<ClaimSpan, "session" | "start" | "end">,
  overlapping: readonly Pick<OverlappingClaim, "session">[],
  calendar?: WorkingCalendar,
): ClaimRefusal | null {
  const nobody = { ok: false, reason: "resource_unavailable", onlyWith: [] as string[] } as const;
  if (!resource.active) return { ...nobody, detail: "The resource is not active." };
  if (hasOwnHours(resource) && !withinWorkingTime(resource, claim.start, claim.end, undefined, calendar)) {
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
