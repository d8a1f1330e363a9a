import type { ClaimRefusal, ClaimSpan, OverlappingClaim, ProviderSnapshot } from "../claim-types";
import { ClaimedCalendar } from "../claims/claimed-calendar";
import { checkProviderFree, checkProviderWorking } from "../rules/person-rules";

/**
 * The calendar of one business's provider: the single authority on a person's time across every
 * service they perform. A person takes one session at a time; a group session takes up to its
 * service's capacity of seats.
 */
export class ProviderCalendar extends ClaimedCalendar<ProviderSnapshot> {
  protected readonly reasons = { unavailable: "provider_unavailable", busy: "provider_busy" } as const;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, "provider");
  }

  protected refuse(person: ProviderSnapshot, claim: ClaimSpan, overlapping: OverlappingClaim[]): ClaimRefusal | null {
    return checkProviderWorking(person, claim.start, claim.end) ?? checkProviderFree(claim, overlapping);
  }
}
