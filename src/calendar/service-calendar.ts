import { DurableObject } from "cloudflare:workers";
import { holdsCapacity, toBooking } from "../domain/booking";
import type { Hold } from "../domain/hold";
import { type CustomerRewrite, rewriteCustomer } from "./customer-rewrite";
import { queuePublisher } from "./event-relay";
import { consumeHold, expireHolds, type HoldCommand, type HoldResult } from "./hold-steps";
import { type ImportedBooking, type ImportResult, importBookings } from "./import";
import { type LiveSlot, liveSlots } from "./live-slots";
import { OUTBOX_STUCK_AFTER_MS } from "./outbox";
import { d1Writer } from "./persist";
import type { ProviderSnapshot } from "./provider/types";
import { expireTentative } from "./provider-booking";
import { bookWithProvider, holdSeat, moveBooking, type ProviderFlowDeps } from "./provider-flow";
import { pruneCalendar } from "./prune";
import { reserve } from "./reserve";
import type { ServiceRules } from "./rules";
import { type ProposalResult, proposeChange, type ServiceChange } from "./service-change";
import { changeStatus } from "./status-change";
import { type CalendarTables, openTables } from "./tables";
import type {
  CalendarResult,
  CalendarSnapshot,
  CreateBookingCommand,
  RescheduleCommand,
  ServiceSnapshot,
  TransitionCommand,
} from "./types";
import { WriteBehind, type WriteBehindSinks } from "./write-behind";

/** A release queued with a status change is sent at once; the alarm is the backstop after this. */
const RELEASE_GRACE_MS = 10_000;

/**
 * The live calendar of one business's service: the authority on its availability.
 *
 * A shell that wires the calendar's jobs: reserving (`reserve.ts`), status changes
 * (`status-change.ts`), the write-behind to D1 (`write-behind.ts`) and the event relay to the
 * webhook queue (`event-relay.ts`). Every check-and-write runs in one synchronous SQLite
 * transaction, so requests for the same service are serialised without locks; D1 is written
 * only after the change commits.
 */
export class ServiceCalendar extends DurableObject<Env> {
  private readonly tables: CalendarTables;
  private readonly writeBehind: WriteBehind;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sinks = this.sinks();
    this.tables = openTables(ctx.storage, sinks.publish);
    this.writeBehind = new WriteBehind(ctx.storage, this.tables, sinks.writeToD1);
    // Work a reset may have left without an alarm (outbox rows, events, tentative rows, owed
    // releases, live holds) gets one.
    ctx.blockConcurrencyWhile(async () => {
      await this.tables.alarm.load();
      this.armForPending();
    });
  }

  /**
   * Checks availability and reserves the slot; then records the booking in D1. A service with
   * providers also needs the person's time from their calendar (provider-flow.ts).
   */
  async createBooking(command: CreateBookingCommand): Promise<CalendarResult> {
    const { holdId } = command;
    if (holdId) {
      const result = this.ctx.storage.transactionSync(() =>
        consumeHold(this.tables, { ...command, holdId }, Date.now()),
      );
      if (result.ok) {
        await this.sendReleases();
        await this.writeBehind.afterCommit();
      }
      return result;
    }
    if (command.providers && command.providers.length > 0) {
      return bookWithProvider(this.flowDeps(), command);
    }
    const result = this.ctx.storage.transactionSync(() => {
      expireHolds(this.tables, Date.now());
      return reserve(this.tables, command, Date.now());
    });
    if (!result.ok) return result;
    if (!result.replayed) await this.writeBehind.afterCommit();
    // D1 may have linked the booking to an existing customer meanwhile.
    const stored = this.tables.reservations.load(result.booking.id);
    return { ...result, booking: toBooking(stored), version: stored.version };
  }

  /** Applies a status change (or a notes edit) to a booking of this calendar. */
  async transition(command: TransitionCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => {
      const now = Date.now();
      const changed = changeStatus(this.tables, command, now);
      // A status that frees the seat frees the provider's time too (released after the commit).
      const claim = changed.ok ? this.tables.reservations.claimOf(changed.booking.id) : undefined;
      if (changed.ok && claim && !holdsCapacity(changed.booking.status)) {
        this.tables.releases.queue(claim, now);
        this.tables.alarm.arm(now + RELEASE_GRACE_MS);
      }
      return changed;
    });
    if (result.ok && !result.replayed) {
      await this.sendReleases();
      await this.writeBehind.afterCommit();
    }
    return result;
  }

  /**
   * Moves a booking to a new time (reschedule.ts): one transaction without providers; with
   * providers a tentative row holds the new time while the provider calendar claims it.
   */
  async reschedule(command: RescheduleCommand): Promise<CalendarResult> {
    return moveBooking(this.flowDeps(), command);
  }

  /** Places a hold (hold-steps.ts); with providers, after the person's calendar claims the time. */
  async placeHold(command: HoldCommand): Promise<HoldResult> {
    return holdSeat(this.flowDeps(), command);
  }

  /**
   * The service changed (`PATCH /services/{id}`, before it answers): commands decided against
   * an older version are refused from now on.
   */
  async serviceChanged(version: number): Promise<void> {
    this.ctx.storage.transactionSync(() => this.tables.serviceVersion.note(version));
  }

  /**
   * A change existing bookings could conflict with (service-change.ts), before the PATCH writes
   * D1: refused with the conflicts, or held pending until `serviceChanged` confirms it.
   */
  async proposeChange(change: ServiceChange): Promise<ProposalResult> {
    return this.ctx.storage.transactionSync(() => {
      expireHolds(this.tables, Date.now());
      return proposeChange(this.tables, change, Date.now());
    });
  }

  /** The nightly prune (prune.ts): drops bookings that ended two days ago or earlier. */
  async prune(): Promise<{ bookings: number }> {
    return { bookings: this.ctx.storage.transactionSync(() => pruneCalendar(this.ctx.storage.sql, Date.now())) };
  }

  /** A hold of this calendar, as it stands now. */
  async getHold(id: string): Promise<Hold | null> {
    return this.tables.holds.find(id, Date.now()) ?? null;
  }

  /** Releases a live hold: its seat (and its provider's time) is free at once. */
  async releaseHold(id: string): Promise<Hold | null> {
    const hold = this.ctx.storage.transactionSync(() => {
      const now = Date.now();
      expireHolds(this.tables, now);
      const current = this.tables.holds.find(id, now);
      if (current?.status !== "HELD") return current ?? null;
      const claim = this.tables.holds.end(id, "RELEASED");
      if (claim) this.tables.releases.queue(claim, now);
      return this.tables.holds.find(id, now) ?? null;
    });
    await this.sendReleases();
    return hold;
  }

  /** The live slot calendar for slots starting in `[from, to)`. */
  async availability(rules: ServiceRules, from: number, to: number): Promise<LiveSlot[]> {
    this.ctx.storage.transactionSync(() => expireHolds(this.tables, Date.now()));
    return liveSlots(this.tables.reservations, rules, from, to, Date.now());
  }

  /**
   * Imports existing appointments under the same rules (import.ts); returns once D1 has them all
   * (or they wait in the outbox).
   */
  async importBookings(
    service: ServiceSnapshot,
    bookings: ImportedBooking[],
    providers: ProviderSnapshot[] = [],
  ): Promise<ImportResult> {
    const result = await importBookings(this.flowDeps(), service, bookings, providers);
    await this.writeBehind.drain();
    return result;
  }

  /** Every booking id with its status and version, the outbox and the counters. */
  async snapshot(): Promise<CalendarSnapshot> {
    return {
      bookings: this.tables.reservations.list(),
      outbox: this.tables.outbox.pendingIds(),
      stuckInOutbox: this.tables.outbox.queuedBefore(Date.now() - OUTBOX_STUCK_AFTER_MS),
      counters: this.tables.reservations.counters(),
      releases: this.tables.releases.pending(),
      holds: this.tables.holds.list(Date.now()),
    };
  }

  /**
   * Gives up tentative rows past their deadline, sends owed provider releases, retries every due
   * outbox entry and event; reschedules itself while any remain. Every step is idempotent.
   */
  override async alarm(): Promise<void> {
    this.tables.alarm.fired();
    this.ctx.storage.transactionSync(() => {
      expireHolds(this.tables, Date.now());
      expireTentative(this.tables, Date.now());
    });
    await this.sendReleases();
    await this.writeBehind.run();
    await this.tables.alarm.load();
    this.armForPending();
  }

  /** What the asynchronous flows (provider-flow.ts) need of this object. */
  private flowDeps(): ProviderFlowDeps {
    return {
      storage: this.ctx.storage,
      env: this.env,
      tables: this.tables,
      afterCommit: () => this.writeBehind.afterCommit(),
      sendReleases: () => this.sendReleases(),
    };
  }

  /** Sends owed provider releases; what fails stays owed for the alarm. */
  private async sendReleases(): Promise<void> {
    if (this.tables.releases.nextAttemptMs() === null) return;
    await this.tables.releases.send(this.env, Date.now());
    this.armForPending();
  }

  /** Arms the alarm for the earliest pending work: outbox, events, tentative rows, releases, holds. */
  private armForPending(): void {
    const next = [
      this.tables.outbox.nextAttemptMs(),
      this.tables.events.nextAttemptMs(),
      this.tables.reservations.nextTentativeDeadline(),
      this.tables.releases.nextAttemptMs(),
      this.tables.holds.nextExpiry(),
    ].filter((at): at is number => at !== null);
    if (next.length > 0) this.tables.alarm.arm(Math.max(Math.min(...next), Date.now()));
  }

  /** Where committed changes go: D1 and the webhook queue. */
  protected sinks(): WriteBehindSinks {
    return { writeToD1: d1Writer(this.env.DB), publish: queuePublisher(this.env.WEBHOOK_QUEUE) };
  }

  /**
   * Rewrites (edit) or erases a customer's details in every booking this calendar holds, and in
   * queued events (customer-rewrite.ts); the new versions go to D1 through the outbox.
   */
  async rewriteCustomer(command: CustomerRewrite): Promise<{ bookingIds: string[] }> {
    const result = this.ctx.storage.transactionSync(() =>
      rewriteCustomer(this.ctx.storage.sql, this.tables.outbox, command, Date.now()),
    );
    await this.writeBehind.afterCommit();
    return result;
  }
}
