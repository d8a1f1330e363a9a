import { DurableObject } from "cloudflare:workers";
import { toBooking } from "../bookings/booking";
import { queuePublisher } from "./event-relay";
import { liveSlots } from "./live-slots";
import { d1Writer } from "./persist";
import { reserve } from "./reserve";
import type { ServiceRules } from "./rules";
import { changeStatus } from "./status-change";
import { type CalendarTables, openTables } from "./tables";
import type {
  CalendarResult,
  CalendarSlot,
  CalendarSnapshot,
  CreateBookingCommand,
  ServiceSnapshot,
  TransitionCommand,
} from "./types";
import { WriteBehind, type WriteBehindSinks } from "./write-behind";

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
  }

  /** Checks availability and reserves the slot; then records the booking in D1. */
  async createBooking(command: CreateBookingCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => reserve(this.tables, command, Date.now()));
    if (!result.ok) return result;
    if (!result.replayed) await this.writeBehind.afterCommit();
    // D1 may have linked the booking to an existing customer meanwhile.
    const stored = this.tables.reservations.load(result.booking.id);
    return { ...result, booking: toBooking(stored), version: stored.version };
  }

  /** Applies a status change (or a notes edit) to a booking of this calendar. */
  async transition(command: TransitionCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => changeStatus(this.tables, command, Date.now()));
    if (result.ok && !result.replayed) await this.writeBehind.afterCommit();
    return result;
  }

  /** The live slot calendar for slots starting in `[from, to)`. */
  async availability(rules: ServiceRules, from: number, to: number): Promise<CalendarSlot[]> {
    return liveSlots(this.tables.reservations, rules, from, to, Date.now());
  }

  /**
   * Imports existing appointments (a business moving in from another system): every one passes
   * the same rules as a new booking, all are reserved in one transaction, and the call returns
   * once D1 has them all (or they wait in the outbox).
   */
  async importBookings(
    service: ServiceSnapshot,
    bookings: CreateBookingCommand["booking"][],
  ): Promise<{ imported: number; refused: { index: number; reason: string }[] }> {
    const results = this.ctx.storage.transactionSync(() =>
      bookings.map((booking) => reserve(this.tables, { service, booking, customerId: null }, Date.now())),
    );
    const refused = results.flatMap((r, index) =>
      r.ok ? [] : [{ index, reason: "reason" in r.refusal ? r.refusal.reason : r.refusal.code }],
    );
    await this.writeBehind.drain();
    return { imported: results.length - refused.length, refused };
  }

  /** Every booking id with its status and version, the outbox and the counters. */
  async snapshot(): Promise<CalendarSnapshot> {
    return {
      bookings: this.tables.reservations.list(),
      outbox: this.tables.outbox.pendingIds(),
      counters: this.tables.reservations.counters(),
    };
  }

  /** Retries every due outbox entry and event; reschedules itself while any remain. */
  override async alarm(): Promise<void> {
    await this.writeBehind.run();
  }

  /** Where committed changes go: D1 and the webhook queue. */
  protected sinks(): WriteBehindSinks {
    return { writeToD1: d1Writer(this.env.DB), publish: queuePublisher(this.env.WEBHOOK_QUEUE) };
  }
}
