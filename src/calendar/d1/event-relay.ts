/**
 * Event relay: a booking change's webhook event is recorded in the change's own transaction,
 * goes to D1 with its booking (stage 'd1'), then to the webhook queue (stage 'queue'), and is
 * dropped once the queue has it. Whatever fails waits here for the next attempt.
 */

import { auditOf, type ChangeOf } from "../../audit/booking-events";
import { type BookingEvent, type DeliveryMessage, eventPayload, eventTypeFor } from "../../audit/events";
import { errorText } from "../../lib/api-error";
import { newId } from "../../lib/ids";
import type { Actor } from "../../types/actor";
import type { BookingStatus } from "../../types/booking";
import { toBooking } from "../../types/booking";
import { type MailPlan, planFor } from "../../types/message";
import type { WaitlistEntry } from "../../types/waitlist";
import type { WebhookEventType } from "../../types/webhook";
import { retryDelayMs } from "../alarm-clock";
import { OUTBOX_ALARM_GRACE_MS, type PersistOutcome } from "./outbox";
import type { StoredBooking } from "./persist";

/** The booking an event row `e` is about: its data, or (a reminder) its data's booking. */
const eventBookingId = "coalesce(json_extract(e.payload, '$.data.id'), json_extract(e.payload, '$.data.booking.id'))";

const changed = (a: StoredBooking, b: StoredBooking, field: string) =>
  (a as Record<string, unknown>)[field] !== (b as Record<string, unknown>)[field];

/** Puts events that D1 has on the webhook queue; throws when the queue refuses them. */
export type EventPublisher = (events: BookingEvent[]) => Promise<void>;

/** The production publisher: one queue message per event. */
export function queuePublisher(queue: Queue<DeliveryMessage>): EventPublisher {
  return async (events) => {
    await queue.sendBatch(events.map((e) => ({ body: { eventId: e.id } satisfies DeliveryMessage })));
  };
}

type EventRow = {
  id: string;
  business_id: string;
  type: BookingEvent["type"];
  payload: string;
  created_at: string;
  attempts: number;
  mail: string | null;
  audit: string | null;
};

const toEvent = (row: EventRow): BookingEvent => ({
  id: row.id,
  businessId: row.business_id,
  type: row.type,
  payload: row.payload,
  createdAt: row.created_at,
  mail: row.mail,
  audit: row.audit,
});

/** A batch of events on its way to D1, as the write-behind carries it. */
export type PendingEvents = { rows: EventRow[]; events: BookingEvent[] };

/** The events table of one calendar and the step that publishes it. */
export class EventRelay {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly publish: EventPublisher,
  ) {}

  private get sql() {
    return this.storage.sql;
  }

  /**
   * Records the webhook event of a change, inside the caller's transaction, with what it mails
   * the customer: `mail` when given (null: nothing, as for an import), else the default plan.
   */
  raise(
    previous: BookingStatus | null,
    booking: StoredBooking,
    at: string,
    mail?: MailPlan | null,
    change: ChangeOf = {},
  ): void {
    this.record(
      booking.businessId,
      eventTypeFor(previous, booking.status),
      { ...toBooking(booking), version: booking.version },
      at,
      mail === undefined ? planFor(previous, booking) : mail,
      auditOf(change, booking.id),
    );
  }

  /** Records `booking.rescheduled`: the moved booking with the time and provider it had before. */
  raiseRescheduled(previous: StoredBooking, moved: StoredBooking, at: string, actor?: Actor): void {
    this.record(
      moved.businessId,
      "booking.rescheduled",
      {
        ...toBooking(moved),
        version: moved.version,
        previousStartTime: previous.startTime,
        previousEndTime: previous.endTime,
        previousProviderId: previous.providerId ?? null,
      },
      at,
      { kind: "rescheduled" },
      auditOf(
        { actor, fields: ["startTime", "endTime", "providerId"].filter((f) => changed(previous, moved, f)) },
        moved.id,
      ),
    );
  }

  /** Records `booking.reminder`: the booking as it is now, and which of its service's reminders this is. */
  raiseReminder(booking: StoredBooking, offsetMinutes: number, at: string): void {
    this.record(
      booking.businessId,
      "booking.reminder",
      { offsetMinutes, booking: { ...toBooking(booking), version: booking.version } },
      at,
      { kind: "reminder" },
    );
  }

  /** Records `waitlist.offered`: the entry as it is now, with the hold offered to it. */
  raiseOffered(businessId: string, entry: WaitlistEntry, at: string): void {
    this.record(businessId, "waitlist.offered", entry, at);
  }

  private record(
    businessId: string,
    type: WebhookEventType,
    data: object,
    at: string,
    mail: MailPlan | null = null,
    audit: string | null = null,
  ) {
    this.sql.exec(
      "INSERT INTO events (id, business_id, type, payload, created_at, stage, attempts, next_attempt_ms, mail, audit) VALUES (?, ?, ?, ?, ?, 'd1', 0, 0, ?, ?)",
      newId("event", Date.parse(at)),
      businessId,
      type,
      eventPayload(type, data, at),
      at,
      mail && JSON.stringify(mail),
      audit,
    );
  }

  /**
   * Up to `limit` events D1 does not have yet, oldest first — only those whose booking version
   * is in D1 already or travels in the same batch (`bookingIds`): an event never reaches D1, and
   * so the queue, before the booking it describes.
   */
  awaitingD1(limit: number, bookingIds: string[]): PendingEvents {
    const rows = this.sql
      .exec<EventRow>(
        `SELECT * FROM events e WHERE stage = 'd1'
           AND (NOT EXISTS (SELECT 1 FROM outbox o WHERE o.booking_id = ${eventBookingId})
                OR ${eventBookingId} IN (SELECT value FROM json_each(?)))
         ORDER BY id LIMIT ?`,
        JSON.stringify(bookingIds),
        limit,
      )
      .toArray();
    return { rows, events: rows.map(toEvent) };
  }

  /** How many events could go to D1 now (due, and their booking not waiting in the outbox). */
  readyForD1(now: number): number {
    return this.sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM events e WHERE stage = 'd1' AND next_attempt_ms <= ?
           AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.booking_id = ${eventBookingId})`,
        now,
      )
      .one().n;
  }

  /**
   * After a D1 write that carried `pending`, inside the caller's transaction. An event with
   * deliveries or messages waits for the queue: published right after (`publishReady`), and due
   * for the alarm only after a grace, in case that publish is lost with a reset.
   */
  settleD1(pending: PendingEvents, outcome: PersistOutcome, now: number): void {
    for (const event of pending.rows) {
      if (!outcome.ok) this.defer(event, now, outcome.error);
      else if (outcome.eventsWithDeliveries.has(event.id)) {
        this.sql.exec(
          "UPDATE events SET stage = 'queue', next_attempt_ms = ? WHERE id = ?",
          now + OUTBOX_ALARM_GRACE_MS,
          event.id,
        );
      } else this.sql.exec("DELETE FROM events WHERE id = ?", event.id);
    }
  }

  /** Sends to the queue every event that D1 has and that is due by `now + within`. */
  async publishReady(now: number, within = 0): Promise<void> {
    const ready = this.sql
      .exec<EventRow>(
        "SELECT * FROM events WHERE stage = 'queue' AND next_attempt_ms <= ? ORDER BY id LIMIT 100",
        now + within,
      )
      .toArray();
    if (ready.length === 0) return;
    const error = await this.publish(ready.map(toEvent)).then(
      () => null,
      (e: unknown) => errorText(e),
    );
    this.storage.transactionSync(() => {
      for (const event of ready) {
        if (error === null) this.sql.exec("DELETE FROM events WHERE id = ?", event.id);
        else this.defer(event, now, error);
      }
    });
  }

  /** When the earliest event is due, or null when none waits. */
  nextAttemptMs(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM events").one().at;
  }

  private defer(event: EventRow, now: number, error: string): void {
    this.sql.exec(
      "UPDATE events SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE id = ?",
      now + retryDelayMs(event.attempts + 1),
      error.slice(0, 500),
      event.id,
    );
  }
}
