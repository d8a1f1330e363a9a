/**
 * Write-behind: after a change commits in the calendar, its booking (from the outbox) and its
 * events go to D1 in one batch, then the events go to the webhook queue. Concurrent callers
 * share writes (group commit); whatever fails stays queued and the alarm retries it.
 */

import type { BookingRecord } from "../../domain/booking";
import { errorText } from "../../lib/errors";
import type { AlarmClock } from "../alarm-clock";
import type { EventPublisher, EventRelay } from "./event-relay";
import type { Outbox, OutboxEntry, PersistOutcome } from "./outbox";
import type { D1Writer } from "./persist";

/** Bookings (and events) per D1 batch: a burst of creates shares a few writes. */
const FLUSH_BATCH = 50;

/** What the write-behind reads and settles: the outbox, the events, the bookings, the alarm. */
export type WriteBehindTables = {
  outbox: Outbox;
  events: EventRelay;
  alarm: AlarmClock;
  reservations: { load(id: string): BookingRecord; linkCustomer(id: string, customerId: string): void };
};

/** Where committed changes go. Constructor dependencies, so tests can put faults in their way. */
export type WriteBehindSinks = { writeToD1: D1Writer; publish: EventPublisher };

export class WriteBehind {
  private writing: Promise<void> | undefined;
  private nextWrite: Promise<void> | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly tables: WriteBehindTables,
    private readonly writeToD1: D1Writer,
  ) {}

  /**
   * Group commit: resolves once a D1 write that started after this call has finished, so it
   * carries the caller's change. Changes committed while a write is in flight share the next one.
   * The change is committed and will be answered with success: a failure here is only logged.
   */
  async afterCommit(): Promise<void> {
    try {
      await this.run();
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "D1 write after commit failed", error: errorText(error) }));
    }
  }

  /**
   * Writes until no booking and no event is due now (an import waits for all of its bookings
   * and leaves no events behind to ride along with later writes).
   */
  async drain(): Promise<void> {
    const { outbox, events } = this.tables;
    while (outbox.countDue(Date.now()) > 0 || events.readyForD1(Date.now()) > 0) await this.afterCommit();
  }

  /** One write of whatever is due; the alarm's step. */
  run(): Promise<void> {
    if (!this.writing) {
      this.writing = this.flush().finally(() => {
        this.writing = undefined;
      });
      return this.writing;
    }
    // Whether the write in flight succeeds or fails, the next one starts after it: a failure
    // must not be handed to callers whose changes it never carried.
    this.nextWrite ??= this.writing
      .catch(() => {})
      .then(() => {
        this.nextWrite = undefined;
        return this.run();
      });
    return this.nextWrite;
  }

  /**
   * Writes every due booking to D1 together with every event not yet there, then puts written
   * events on the webhook queue. Whatever fails stays queued here for the alarm.
   */
  private async flush(): Promise<void> {
    const { outbox, events, reservations } = this.tables;
    const now = Date.now();
    const due = outbox.due(now, FLUSH_BATCH);
    const pending = events.awaitingD1(
      FLUSH_BATCH,
      due.map((d) => d.booking_id),
    );
    try {
      if (due.length > 0 || pending.rows.length > 0) {
        // Whatever the write does, the booking is committed here: a throw is just a failed attempt.
        const outcome = await this.writeToD1(
          due.map((d) => reservations.load(d.booking_id)),
          pending.events,
        ).catch((error: unknown): PersistOutcome => ({ ok: false, error: errorText(error) }));
        this.storage.transactionSync(() => {
          this.settle(due, outcome, now);
          events.settleD1(pending, outcome, now);
        });
        if (!outcome.ok) {
          console.warn(JSON.stringify({ level: "warn", msg: "D1 write deferred to outbox", error: outcome.error }));
        }
      }
      await events.publishReady(now);
    } finally {
      this.scheduleAlarm(due.length === FLUSH_BATCH);
    }
  }

  private settle(due: OutboxEntry[], outcome: PersistOutcome, now: number): void {
    for (const entry of due) {
      if (!outcome.ok) {
        this.tables.outbox.failed(entry, now, outcome.error);
        continue;
      }
      this.tables.outbox.written(entry);
      const customerId = outcome.customerIds.get(entry.booking_id);
      if (customerId) this.tables.reservations.linkCustomer(entry.booking_id, customerId);
    }
  }

  /** Keeps one alarm at the earliest due outbox entry or event (or now, when a full batch was just sent). */
  private scheduleAlarm(moreDue: boolean): void {
    const dues = [this.tables.outbox.nextAttemptMs(), this.tables.events.nextAttemptMs()].filter(
      (at): at is number => at !== null,
    );
    if (dues.length === 0) return;
    // Through the object's one alarm clock, which only ever moves the alarm earlier.
    this.tables.alarm.arm(moreDue ? Date.now() : Math.max(Math.min(...dues), Date.now()));
  }
}
