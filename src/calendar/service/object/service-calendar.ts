import type { Author } from "../../../types/actor";
import { toBooking } from "../../../types/booking";
import type { Hold } from "../../../types/hold";
import type { WaitlistEntry, WaitlistFrom, WaitlistRows, WaitlistStatus } from "../../../types/waitlist";
import { writeDueAudit } from "../../audit-outbox";
import type { ProviderSnapshot, ResourceSnapshot } from "../../claim-types";
import type {
  CalendarResult,
  CalendarSnapshot,
  CreateBookingCommand,
  HoldCommand,
  HoldResult,
  JoinWaitlistCommand,
  OfferContext,
  RescheduleCommand,
  ServiceSnapshot,
  StatusChangeCommand,
  VisitCommand,
  VisitResult,
} from "../../types";
import { createBookingFlow } from "../flows/create-booking";
import { createHoldFlow } from "../flows/create-hold";
import { createVisitFlow } from "../flows/create-visit";
import { type ImportedBooking, type ImportResult, importEach } from "../flows/import-bookings";
import { rescheduleBookingFlow } from "../flows/reschedule-booking";
import { type CustomerRewrite, rewriteCustomer } from "../steps/customer-rewrite";
import { expireHolds, expireTentative } from "../steps/expiry";
import { releaseLiveHold } from "../steps/hold-end";
import { pruneCalendar } from "../steps/prune";
import { type ProposalResult, proposeChange, type ServiceChange } from "../steps/service-change";
import { changeStatus } from "../steps/status-change";
import { type JoinResult, joinQueue, leaveQueue } from "../steps/waitlist-queue";
import { snapshotOf } from "../tables/tables";
import { CalendarReads } from "./calendar-reads";

/**
 * The live calendar of one business's service: the authority on its availability, and the entry
 * of every booking, hold and move of the service (its seats as a calendar a visit claims:
 * object/seat-calendar.ts; what it answers without booking: object/calendar-reads.ts). Each
 * check-and-write runs in one synchronous
 * SQLite transaction, so requests for the same service are serialised without locks; other
 * calendars a booking needs are claimed between transactions (claims/run-claims.ts); D1 is written
 * behind, only after a change commits (d1/write-behind.ts).
 */
export class ServiceCalendar extends CalendarReads {
  /** Checks availability and reserves the slot (and the people it needs); then records the booking in D1. */
  async createBooking(command: CreateBookingCommand): Promise<CalendarResult> {
    const result = await this.create(command);
    if (!result.ok || result.replayed) return result;
    await this.writeBehind.afterCommit();
    // D1 may have linked the booking to an existing customer meanwhile.
    const stored = this.tables.reservations.load(result.booking.id);
    return { ...result, booking: toBooking(stored), version: stored.version };
  }

  /** A booking's commit without its D1 write (the caller writes, or the alarm does). */
  private async create(command: CreateBookingCommand): Promise<CalendarResult> {
    return createBookingFlow(this.deps(), command).finally(() => this.sendTasks());
  }

  /** Books a visit whose first segment is of this service (flows/create-visit.ts); D1 written before it answers, or the outbox. */
  async createVisit(command: VisitCommand): Promise<VisitResult> {
    const result = await createVisitFlow(this.deps(), command).finally(() => this.sendTasks());
    if (result.ok && !result.replayed) await this.writeBehind.afterCommit();
    return result;
  }

  /** Queues a customer for a full slot (steps/waitlist-queue.ts); a seat that is free after all is offered at once. */
  async joinWaitlist(command: JoinWaitlistCommand): Promise<JoinResult> {
    const result = this.ctx.storage.transactionSync(() => joinQueue(this.tables, command, Date.now()));
    if (result.ok) await this.offerSeats();
    return result.ok
      ? { ok: true, entry: this.tables.waitlist.find(result.entry.id, Date.now()) ?? result.entry }
      : result;
  }

  /** A waitlist entry as it stands. */
  async getWaitlistEntry(id: string): Promise<WaitlistEntry | null> {
    return this.tables.waitlist.find(id, Date.now()) ?? null;
  }

  /** A page of this service's waitlist in queue order, optionally of one status. */
  async listWaitlist(status: WaitlistStatus | undefined, from: WaitlistFrom, limit: number): Promise<WaitlistRows> {
    return this.tables.waitlist.page(status, from, limit, Date.now());
  }

  /** Offers what is free to the waitlist now (after a change elsewhere freed this service's people or rooms). */
  async offerWaitlist(): Promise<void> {
    await this.offerSeats();
  }

  /**
   * Takes an entry off the waitlist (its offered hold released, the seat offered to the next); the
   * audit's record of it, by `by.actor`, is kept in the same transaction and written to D1 before
   * the answer (by the alarm, after a reset).
   */
  async leaveWaitlist(id: string, by: Author): Promise<WaitlistEntry | null> {
    const entry = this.ctx.storage.transactionSync(() => {
      const left = leaveQueue(this.tables, id, Date.now(), by);
      this.armForPending();
      return left;
    });
    await this.writeAudit();
    await this.sendTasks();
    await this.offerSeats();
    return entry ?? null;
  }

  /** Applies a status change (or a notes edit) to a booking of this calendar. */
  async changeBookingStatus(command: StatusChangeCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => changeStatus(this.tables, command, Date.now()));
    if (result.ok && !result.replayed) {
      await this.sendTasks();
      await this.writeBehind.afterCommit();
      await this.offerSeats();
    }
    return result;
  }

  /**
   * Moves a booking to a new time (flows/reschedule-booking.ts): one transaction when it claims nothing elsewhere;
   * otherwise a tentative row holds the new time while the other calendars claim it.
   */
  async rescheduleBooking(command: RescheduleCommand): Promise<CalendarResult> {
    const result = await rescheduleBookingFlow(this.deps(), command);
    await this.sendTasks();
    if (result.ok && !result.replayed) await this.writeBehind.afterCommit();
    if (result.ok) await this.offerSeats();
    return result;
  }

  /** Places a hold (flows/create-hold.ts); with people, after their calendars claim the time. */
  async createHold(command: HoldCommand): Promise<HoldResult> {
    const result = await createHoldFlow(this.deps(), command);
    await this.sendTasks();
    return result;
  }

  /**
   * The service changed (`PATCH /services/{id}`, before it answers): commands decided against
   * an older version are refused from now on. With `reminders` (they changed), every upcoming
   * booking's reminders are planned anew; with `offers`, the waitlist takes the new settings (its
   * WAITING entries the new length, tables/waitlist.ts `fitLength`) and is offered what it freed.
   */
  async serviceChanged(version: number, changed: { reminders?: number[]; offers?: OfferContext } = {}): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.tables.serviceVersion.note(version);
      const { reminders, offers } = changed;
      if (reminders) this.tables.reminders.replanUpcoming(this.tables.reservations, reminders, Date.now());
      if (offers && this.tables.waitlist.hasWaiting(Date.now())) {
        const current = this.tables.waitlist.keepContext(offers);
        this.tables.waitlist.fitLength(current.service.durationMinutes, new Date().toISOString());
      }
    });
    if (changed.offers) await this.offerSeats();
  }

  /**
   * A change existing bookings could conflict with (steps/service-change.ts), before the PATCH writes
   * D1: refused with the conflicts, or held pending until `serviceChanged` confirms it.
   */
  async proposeChange(change: ServiceChange): Promise<ProposalResult> {
    return this.ctx.storage.transactionSync(() => {
      expireHolds(this.tables, Date.now());
      return proposeChange(this.tables, change, Date.now());
    });
  }

  /** The nightly prune (steps/prune.ts): bookings that ended two days ago or earlier, waitlist entries after 30. */
  async prune(): Promise<{ bookings: number; waitlist: number }> {
    return this.ctx.storage.transactionSync(() => pruneCalendar(this.ctx.storage.sql, Date.now()));
  }

  /** A hold of this calendar, as it stands now. */
  async getHold(id: string): Promise<Hold | null> {
    return this.tables.holds.find(id, Date.now()) ?? null;
  }

  /**
   * Releases a live hold: its seat (and its people's time) is free at once. Released by this call,
   * its `hold.released` record by `by.actor` is kept in the same transaction and written to D1
   * before the answer (by the alarm, after a reset).
   */
  async releaseHold(id: string, by?: Author): Promise<Hold | null> {
    const hold = this.ctx.storage.transactionSync(() => {
      const ended = releaseLiveHold(this.tables, id, Date.now(), by);
      this.armForPending();
      return ended;
    });
    await this.writeAudit();
    await this.sendTasks();
    await this.offerSeats();
    return hold;
  }

  /** Imports existing appointments under the same rules, one by one; returns once D1 (or the outbox) has them all. */
  async importBookings(
    service: ServiceSnapshot,
    bookings: ImportedBooking[],
    providers: ProviderSnapshot[] = [],
    resources: ResourceSnapshot[] = [],
  ): Promise<ImportResult> {
    const result = await importEach(bookings, (booking, providerId) =>
      this.create({ service, booking, customerId: null, providers, resources, providerId, imported: true }),
    );
    await this.writeBehind.drain();
    return result;
  }

  /** Every booking id with its status and version, the outbox and the counters. */
  async snapshot(): Promise<CalendarSnapshot> {
    return snapshotOf(this.tables, Date.now());
  }

  /**
   * Gives up tentative rows past their deadline, turns due reminders into events, sends what is
   * owed to other calendars, retries every due outbox entry and event; reschedules itself while
   * any remain. Every step is idempotent.
   */
  /** Writes the audit's records kept here to D1; what fails stays for the alarm. */
  protected async writeAudit(): Promise<void> {
    await writeDueAudit(this.env, this.ctx.storage, this.tables.audit, Date.now());
  }

  override async alarm(): Promise<void> {
    this.tables.alarm.fired();
    this.ctx.storage.transactionSync(() => {
      expireHolds(this.tables, Date.now());
      expireTentative(this.tables, Date.now());
      this.tables.reminders.sendDue(this.tables.reservations, this.tables.events, Date.now());
    });
    await this.sendTasks();
    await this.writeBehind.run();
    await this.writeAudit();
    await this.offerSeats(true);
    await this.tables.alarm.load();
    this.armForPending();
  }

  /**
   * Rewrites (edit) or erases a customer's details in every booking this calendar holds, and in
   * queued events (steps/customer-rewrite.ts); the new versions go to D1 through the outbox.
   */
  async rewriteCustomer(command: CustomerRewrite): Promise<{ bookingIds: string[] }> {
    const result = this.ctx.storage.transactionSync(() => {
      // The waitlist and the visits' kept answers name the person too.
      this.tables.waitlist.rewrite(command.email, command.details, command.erase);
      this.tables.visits.rewrite(command.customerId, command.email, command.details, command.erase);
      return rewriteCustomer(this.ctx.storage.sql, this.tables.outbox, command, Date.now());
    });
    await this.writeBehind.afterCommit();
    return result;
  }
}
