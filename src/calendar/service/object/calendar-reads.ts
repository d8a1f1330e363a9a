import type { ServiceLimitSettings } from "../../../types/limits";
import type { Range } from "../../claim-types";
import { assignOrder } from "../../limits/service-checks";
import type { ServiceRules } from "../../rules/service-rules";
import type { LiveSlot } from "../../rules/slots";
import type { ServiceSnapshot } from "../../types";
import { expireHolds } from "../steps/expiry";
import { liveSlots } from "../steps/live-slots";
import { SeatCalendar } from "./seat-calendar";

/**
 * What a service's calendar answers without booking anything (its RPC surface with
 * service-calendar.ts and seat-calendar.ts): the live slot calendar, and the order it assigns
 * its people in.
 */
export abstract class CalendarReads extends SeatCalendar {
  /** The live slot calendar for slots starting in `[from, to)`, its limits included. */
  async availability(rules: ServiceRules & ServiceLimitSettings, from: number, to: number): Promise<LiveSlot[]> {
    return (await this.availabilityEach(rules, [{ from, to }]))[0] as LiveSlot[];
  }

  /** `availability` of each range, in one call (a series' occurrences). */
  async availabilityEach(rules: ServiceRules & ServiceLimitSettings, ranges: Range[]): Promise<LiveSlot[][]> {
    this.ctx.storage.transactionSync(() => expireHolds(this.tables, Date.now()));
    return ranges.map(({ from, to }) => liveSlots(this.tables, rules, from, to, Date.now()));
  }

  /**
   * The people of an unnamed booking starting at `start` in the order this service assigns them
   * (steps/limits.ts `assignOrder`): asked by a visit whose segment of this service another calendar
   * books. Only a preference: the seat is still decided when it is claimed.
   */
  async assignmentOrder(service: ServiceSnapshot, providers: string[], start: number): Promise<string[]> {
    const candidates = providers.map((providerId) => ({ providerId, providers: [], resources: [] }));
    return this.ctx.storage
      .transactionSync(() => assignOrder(this.tables.counts, service, candidates, start))
      .map((c) => c.providerId as string);
  }
}
