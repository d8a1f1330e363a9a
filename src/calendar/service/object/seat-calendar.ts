import type { ClaimResult, ClaimsResult, SeatCommand } from "../../claim-types";
import { decideEach } from "../../claims/batch";
import { claimSeat, confirmSeat, releaseSeat, type SeatConfirmation } from "../steps/seat-claims";
import { CalendarObject } from "./calendar-object";

/**
 * A service's seats as a calendar other entries claim (steps/seat-claims.ts): the RPC a visit's entry
 * calls on the calendar of each later segment's service. Each call is one transaction.
 */
export abstract class SeatCalendar extends CalendarObject {
  /** A visit's entry claims a segment's seat here. */
  async claim(command: SeatCommand): Promise<ClaimResult> {
    return this.ctx.storage.transactionSync(() => claimSeat(this.tables, command, Date.now()));
  }

  /** Several segments' seats in one call, in one transaction: all taken, or none (claims/batch.ts). */
  async claimEach(commands: SeatCommand[]): Promise<ClaimsResult> {
    return decideEach(this.ctx.storage, commands, (command, now) => claimSeat(this.tables, command, now));
  }

  /** The visit was booked: the segment becomes a booking, written to D1 before this answers. */
  async confirm(confirmation: SeatConfirmation): Promise<{ ok: boolean }> {
    const answer = this.ctx.storage.transactionSync(() => confirmSeat(this.tables, confirmation, Date.now()));
    await this.writeBehind.afterCommit();
    return answer;
  }

  /** The visit was given up: its segments' seats are free, and their claim ids cannot take them again. */
  async releaseEach(claimIds: string[]): Promise<{ released: number }> {
    const released = (id: string) => releaseSeat(this.tables, id, Date.now()).released;
    return this.ctx.storage.transactionSync(() => ({ released: claimIds.filter(released).length }));
  }
}
