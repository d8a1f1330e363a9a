/**
 * Write-behind: after a change commits in the calendar, its booking (from the outbox) and its
 * events go to D1 in one batch, then the events go to the webhook queue. Concurrent callers
 * share writes (group commit); a caller waits for D1, not for the queue (the request is answered
 * while its events are published); whatever fails stays queued and the alarm retries it.
 */

import { laterBookmark } from "../../db/bookmarks";
import { errorText } from "../../lib/api-error";
import type { BookingRecord } from "../../types/booking";
import type { AlarmClock } from "../alarm-clock";
import type { EventPublisher, EventRelay } from "./event-relay";
import { OUTBOX_ALARM_GRACE_MS, type Outbox, type OutboxEntry, type PersistOutcome } from "./outbox";
import type { D1Writer } from "./persist";

/** Bookings (and events) per D1 batch: a burst of creates shares a few writes. */
const FLUSH_BATCH = 50;

/**
 * Written events go to the queue this long after their write: the publish never runs beside the
 * answer it follows, and a burst of changes shares one (docs/performance.md, "E-mails and the
 * create's latency").
 */
export const PUBLISH_DELAY_MS = 100;

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
  /** Publishes to the queue, one after another (so two never send the same events). */
  private publishing: Promise<void> = Promise.resolve();
  /** Set while a delayed publish is waiting to start: later writes join it. */
  private publishWaiting = false;
  /**
   * The D1 bookmark after the latest write that succeeded (null before one): once `afterCommit`
   * resolved, it covers the caller's change, which the calendar hands back with its answer.
   */
  bookmark: string | null = null;

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
      await this.write();
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

  /** The alarm's step: one write of whatever is due, and every event D1 has on the queue (those just written too). */
  async run(): Promise<void> {
    await this.write();
    this.publishSoon(Date.now(), OUTBOX_ALARM_GRACE_MS);
    await this.publishing;
  }

  /** One write of whatever is due (its events published after it, not awaited). */
  private write(): Promise<void> {
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
        return this.write();
      });
    return this.nextWrite;
  }

  /** Publishes the events D1 has (their alarm's grace included) PUBLISH_DELAY_MS from now, once for every write until then. */
  private publishLater(): void {
    if (this.publishWaiting) return;
    this.publishWaiting = true;
    setTimeout(() => {
      this.publishWaiting = false;
      this.publishSoon(Date.now(), OUTBOX_ALARM_GRACE_MS);
    }, PUBLISH_DELAY_MS);
  }

  /**
   * Puts the events D1 has (due by `now + within`) on the queue after whatever publish runs now.
   * Nobody waits for it; a failed or lost publish leaves them to the alarm.
   */
  private publishSoon(now: number, within: number): void {
    this.publishing = this.publishing
      .then(() => this.tables.events.publishReady(now, within))
      // A failed publish deferred its events: the alarm takes them at their time.
      .then(() => this.scheduleAlarm(false))
      .catch((error: unknown) => {
        console.error(JSON.stringify({ level: "error", msg: "queue publish failed", error: errorText(error) }));
      });
  }

  /**
   * Writes every due booking to D1 together with every event not yet there, then starts putting
   * written events on the webhook queue. Whatever fails stays queued here for the alarm.
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
        if (outcome.ok) this.bookmark = laterBookmark(this.bookmark, outcome.bookmark);
        this.storage.transactionSync(() => {
          this.settle(due, outcome, now);
          events.settleD1(pending, outcome, now);
        });
        if (!outcome.ok) {
          console.warn(JSON.stringify({ level: "warn", msg: "D1 write deferred to outbox", error: outcome.error }));
        }
      }
      // The events just written wait out a grace for the alarm; this publish takes them in a moment.
      this.publishLater();
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
