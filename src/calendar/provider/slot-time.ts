import type { ProviderSnapshot } from "../claim-types";
import type { Span } from "../rules/service-rules";
import type { ProviderTime } from "../rules/slot-counts";
import { providerCalendarOf } from "../stubs";
import { fullOn } from "./day-limit";

/**
 * A person's time as the slot calendar counts it, from their calendar in one call: the claims and
 * own-calendar busy spans around the range (`around`), and whether each day the slots start on
 * (`slots`) holds their daily limit.
 */
export async function slotTimeOf(env: Env, person: ProviderSnapshot, around: Span, slots: Span): Promise<ProviderTime> {
  const calendar = providerCalendarOf(env, person.businessId, person.id);
  const time = await calendar.timeBetween(around.start, around.end, person, slots);
  return { provider: person, ...time, full: fullOn(time.days, person.limits?.perDay) };
}
