import type { ServiceRules } from "../rules/service-rules";
import type { LiveSlot } from "../rules/slots";
import type { ServiceSnapshot } from "../types";
import { CalendarObject } from "./calendar-object";
import { expireHolds } from "./expiry";
import { assignOrder } from "./limits";
import { liveSlots } from "./live-slots";

/**
 * What a service's calendar answers without booking anything (its RPC surface with
 * service-calendar.ts): the live slot calendar, and the order it assigns its people in.
 */
export abstract class CalendarReads extends CalendarObject {
  /** The live slot calendar for slots starting in `[from, to)`, its limits included. */
  async availability(rules: ServiceRules & Partial<ServiceSnapshot>, from: number, to: number): Promise<LiveSlot[]> {
    this.ctx.storage.transactionSync(() => expireHolds(this.tables, Date.now()));
    return liveSlots(this.tables, rules, from, to, Date.now());
  }

  /**
   * The people of an unnamed booking starting at `start` in the order this service assigns them
   * (limits.ts `assignOrder`): asked by a visit whose segment of this service another calendar
   * books. Only a preference: the seat is still decided when it is claimed.
   */
  async assignmentOrder(service: ServiceSnapshot, people: string[], start: number): Promise<string[]> {
    const candidates = people.map((providerId) => ({ providerId, people: [], resources: [] }));
    return this.ctx.storage
      .transactionSync(() => assignOrder(this.tables.counts, service, candidates, start))
      .map((c) => c.providerId as string);
  }
}
