import type { ClaimRefusal, ClaimSpan, OverlappingClaim, ResourceSnapshot } from "../claim-types";
import { ClaimedCalendar } from "../claims/claimed-calendar";
import { checkResourceFree } from "../rules/resource-rules";

/**
 * The calendar of one business's resource (a room, a chair, a machine): the single authority on
 * its units across every service that needs it. Each booking takes one unit for its blocked
 * span; the seats of one group session share it.
 */
export class ResourceCalendar extends ClaimedCalendar<ResourceSnapshot> {
  protected readonly reasons = { unavailable: "resource_unavailable", busy: "resource_unavailable" } as const;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, "resource");
  }

  protected refuse(resource: ResourceSnapshot, claim: ClaimSpan, overlapping: OverlappingClaim[]): ClaimRefusal | null {
    return checkResourceFree(resource, claim, overlapping);
  }
}
