import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { BookingStatus } from "../db/schema";
import { newId } from "../lib/ids";
import { toBooking } from "../routes/bookings/schemas";
import { type BookingEvent, eventPayload, eventTypeFor, type WebhookMessage } from "../webhooks/events";
import { type CustomerRewrite, rewriteCustomer } from "./customer-rewrite";
import { type PersistOutcome, retryDelayMs } from "./outbox";
import { persistBookings, type StoredBooking } from "./persist";
import {
  blockedSpan,
  checkCapacity,
  checkRequest,
  checkTiming,
  type ServiceRules,
  type Span,
  slotsBetween,
} from "./rules";
import { migrate } from "./storage";
import { canTransition } from "./transitions";
import type {
  CalendarCounters,
  CalendarResult,
  CalendarSlot,
  CalendarSnapshot,
  CreateBookingCommand,
  ServiceSnapshot,
  TransitionCommand,
} from "./types";

/** How long a D1 write may take before the booking is left to the outbox alarm. */
const D1_WRITE_TIMEOUT_MS = 5_000;
/** Bookings (and events) per D1 batch: a burst of creates shares a few writes. */
const FLUSH_BATCH = 50;
/** The calendar's own idempotency records outlive the 24-hour D1 ones by a day. */
const IDEMPOTENCY_RETENTION_MS = 48 * 60 * 60 * 1000;

type Row = { id: string; record: string };

/**
 * The live calendar of one business's service: the authority on its availability.
 *
 * Every check-and-reserve runs in one synchronous SQLite transaction, so requests for the
 * same service are serialised without locks and no I/O can interleave between the check and
 * the write. D1 is written only after the reservation commits; a failed write stays in the
 * outbox and an alarm retries it until D1 has it.
 */
export class ServiceCalendar extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** The longest blocked span ever stored: bounds how far back an overlap can begin. */
  private maxBlockedMs: number;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.storage.transactionSync(() => migrate(this.sql));
    this.maxBlockedMs = this.sql
      .exec<{ value: number }>("SELECT value FROM meta WHERE key = 'max_blocked_ms'")
      .one().value;
  }

  /** Checks availability and reserves the slot; then records the booking in D1. */
  async createBooking(command: CreateBookingCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => this.reserve(command, Date.now()));
    if (result.ok && !result.replayed) await this.flushAfterCommit();
    if (!result.ok) return result;
    const stored = this.load(result.booking.id);
    return { ...result, booking: toBooking(stored), version: stored.version };
  }

  /** Applies a status change (or a notes edit) to a booking of this calendar. */
  async transition(command: TransitionCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => this.applyTransition(command, new Date().toISOString()));
    if (result.ok && !result.replayed) await this.flushAfterCommit();
    return result;
  }

  /** The live slot calendar for slots starting in `[from, to)`. */
  async availability(rules: ServiceRules, from: number, to: number): Promise<CalendarSlot[]> {
    const now = Date.now();
    const slots = slotsBetween(rules, from, to);
    if (slots.length === 0) return [];
    const first = blockedSpan(rules, (slots[0] as { start: number }).start, 0).start;
    const last = blockedSpan(rules, 0, (slots.at(-1) as { end: number }).end).end;
    const reservations = this.activeOverlapping({ start: first, end: last });
    return slots.map((slot) => {
      const blocked = blockedSpan(rules, slot.start, slot.end);
      const booked = reservations.filter((r) => r.s < blocked.end && r.e > blocked.start).length;
      const remaining = Math.max(0, rules.capacity - booked);
      return {
        startTime: new Date(slot.start).toISOString(),
        endTime: new Date(slot.end).toISOString(),
        capacity: rules.capacity,
        booked,
        remaining,
        bookable: remaining > 0 && checkTiming(rules, slot.start, slot.end, now) === null,
      };
    });
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
      bookings.map((booking) => this.reserve({ service, booking, customerId: null }, Date.now())),
    );
    const refused = results.flatMap((r, index) =>
      r.ok ? [] : [{ index, reason: "reason" in r.refusal ? r.refusal.reason : r.refusal.code }],
    );
    const dueNow = () =>
      this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE next_attempt_ms <= ?", Date.now()).one().n;
    while (dueNow() > 0) await this.flushAfterCommit();
    return { imported: results.length - refused.length, refused };
  }

  /** Every booking id with its status and version, the outbox and the counters. */
  async snapshot(): Promise<CalendarSnapshot> {
    return {
      bookings: this.sql
        .exec<{ id: string; status: BookingStatus; version: number }>(
          "SELECT id, status, version FROM bookings ORDER BY id",
        )
        .toArray(),
      outbox: this.sql
        .exec<{ booking_id: string }>("SELECT booking_id FROM outbox ORDER BY booking_id")
        .toArray()
        .map((r) => r.booking_id),
      counters: this.counters(),
    };
  }

  /** Retries every due outbox entry; reschedules itself while any remain. */
  override async alarm(): Promise<void> {
    await this.writeBehind();
  }

  // --- critical sections: synchronous, no awaits --------------------------------------------

  private reserve(command: CreateBookingCommand, now: number): CalendarResult {
    const { service, booking, idempotency } = command;
    if (idempotency) {
      this.sql.exec("DELETE FROM idempotency WHERE created_ms < ?", now - IDEMPOTENCY_RETENTION_MS);
      const prior = this.sql
        .exec<{ request_hash: string; booking_id: string }>(
          "SELECT request_hash, booking_id FROM idempotency WHERE key = ?",
          idempotency.key,
        )
        .toArray()[0];
      if (prior && prior.request_hash !== idempotency.requestHash) {
        return {
          ok: false,
          refusal: { code: "idempotency_key_reused", detail: "This key was used for another request." },
        };
      }
      if (prior) {
        const stored = this.load(prior.booking_id);
        return { ok: true, booking: toBooking(stored), version: stored.version, replayed: true };
      }
    }

    const start = Date.parse(booking.startTime);
    const end = Date.parse(booking.endTime);
    const violation = checkRequest(service, start, end, now);
    if (violation?.kind === "invalid") {
      return { ok: false, refusal: { code: "validation_failed", ...violation } };
    }
    if (violation)
      return { ok: false, refusal: { code: "slot_unavailable", reason: violation.reason, detail: violation.detail } };

    const blocked = blockedSpan(service, start, end);
    const full = checkCapacity(service, this.activeOverlapping(blocked).length);
    if (full?.kind === "unavailable") {
      return { ok: false, refusal: { code: "slot_unavailable", reason: full.reason, detail: full.detail } };
    }

    const createdAt = new Date(now).toISOString();
    const record: StoredBooking = {
      id: newId("booking", now),
      businessId: service.businessId,
      serviceId: service.id,
      customerId: command.customerId ?? newId("customer", now),
      customerName: booking.customerName,
      customerEmail: booking.customerEmail,
      customerPhone: booking.customerPhone,
      startTime: new Date(start).toISOString(),
      endTime: new Date(end).toISOString(),
      notes: booking.notes,
      status: service.requiresConfirmation ? "PENDING" : "CONFIRMED",
      version: 1,
      createdAt,
      updatedAt: createdAt,
      cancelledAt: null,
      cancellationReason: null,
    };
    this.sql.exec(
      "INSERT INTO bookings (id, start_ms, blocked_start_ms, blocked_end_ms, status, version, record) VALUES (?, ?, ?, ?, ?, 1, ?)",
      record.id,
      start,
      blocked.start,
      blocked.end,
      record.status,
      JSON.stringify(record),
    );
    this.bumpCounter(record.status, 1);
    this.enqueue(record.id, 1, now);
    this.raiseEvent(null, record, createdAt);
    if (blocked.end - blocked.start > this.maxBlockedMs) {
      this.maxBlockedMs = blocked.end - blocked.start;
      this.sql.exec("UPDATE meta SET value = ? WHERE key = 'max_blocked_ms'", this.maxBlockedMs);
    }
    if (idempotency) {
      this.sql.exec(
        "INSERT INTO idempotency (key, request_hash, booking_id, created_ms) VALUES (?, ?, ?, ?)",
        idempotency.key,
        idempotency.requestHash,
        record.id,
        now,
      );
    }
    return { ok: true, booking: toBooking(record), version: 1, replayed: false };
  }

  private applyTransition(command: TransitionCommand, now: string): CalendarResult {
    const rows = this.sql.exec<Row>("SELECT id, record FROM bookings WHERE id = ?", command.bookingId).toArray();
    if (!rows[0]) return { ok: false, refusal: { code: "not_found", detail: `No booking ${command.bookingId}.` } };
    const current = JSON.parse(rows[0].record) as StoredBooking;
    if (command.expectedVersions !== undefined && !command.expectedVersions.includes(current.version)) {
      return {
        ok: false,
        refusal: {
          code: "precondition_failed",
          detail: "The booking changed since the ETag you sent.",
          version: current.version,
        },
      };
    }
    const next: StoredBooking = { ...current, updatedAt: now, version: current.version + 1 };
    if (command.status !== undefined && command.status !== current.status) {
      if (!canTransition(current.status, command.status)) {
        return {
          ok: false,
          refusal: {
            code: "invalid_transition",
            detail: `A ${current.status} booking cannot become ${command.status}.`,
          },
        };
      }
      next.status = command.status;
      if (command.status === "CANCELLED") {
        next.cancelledAt = now;
        next.cancellationReason = command.cancellationReason ?? null;
      }
    } else if (command.status !== undefined) {
      return {
        ok: false,
        refusal: { code: "invalid_transition", detail: `The booking is ${current.status} already.` },
      };
    }
    if (command.notes !== undefined) next.notes = command.notes;

    this.sql.exec(
      "UPDATE bookings SET status = ?, version = ?, record = ? WHERE id = ?",
      next.status,
      next.version,
      JSON.stringify(next),
      next.id,
    );
    if (next.status !== current.status) {
      this.bumpCounter(current.status, -1);
      this.bumpCounter(next.status, 1);
    }
    this.enqueue(next.id, next.version, Date.parse(now));
    this.raiseEvent(current.status, next, now);
    return { ok: true, booking: toBooking(next), version: next.version, replayed: false };
  }

  /**
   * Blocked spans of active bookings that overlap `span`: one range scan of the partial index,
   * starting no earlier than the longest span ever stored could reach back.
   */
  private activeOverlapping(span: Span): { s: number; e: number }[] {
    return this.sql
      .exec<{ s: number; e: number }>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?`,
        span.start - this.maxBlockedMs - 1,
        span.end,
        span.start,
      )
      .toArray();
  }

  private bumpCounter(status: BookingStatus, delta: number): void {
    this.sql.exec("UPDATE counters SET value = value + ? WHERE name = ?", delta, status);
  }

  private enqueue(bookingId: string, version: number, now: number): void {
    this.sql.exec(
      `INSERT INTO outbox (booking_id, version, attempts, next_attempt_ms) VALUES (?, ?, 0, ?)
       ON CONFLICT (booking_id) DO UPDATE SET version = excluded.version`,
      bookingId,
      version,
      now,
    );
  }

  private load(id: string): StoredBooking {
    return JSON.parse(this.sql.exec<Row>("SELECT id, record FROM bookings WHERE id = ?", id).one().record);
  }

  private counters(): CalendarCounters {
    const byStatus = Object.fromEntries(
      this.sql
        .exec<{ name: string; value: number }>("SELECT name, value FROM counters")
        .toArray()
        .map((r) => [r.name, r.value]),
    );
    const count = (status: BookingStatus) => (byStatus[status] as number | undefined) ?? 0;
    return {
      active: count("PENDING") + count("CONFIRMED"),
      pending: count("PENDING"),
      confirmed: count("CONFIRMED"),
      cancelled: count("CANCELLED"),
      completed: count("COMPLETED"),
      noShow: count("NO_SHOW"),
    };
  }

  // --- D1 outbox and event queue ----------------------------------------------------------

  /**
   * Group commit: resolves once a D1 write that started after this call has finished, so it
   * carries the caller's change. Changes committed while a write is in flight share the next one.
   * The change is committed and will be answered with success: a failure here is only logged.
   */
  private async flushAfterCommit(): Promise<void> {
    try {
      await this.writeBehind();
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "D1 write after commit failed", error: errorText(error) }));
    }
  }

  private writing: Promise<void> | undefined;
  private nextWrite: Promise<void> | undefined;

  private writeBehind(): Promise<void> {
    if (!this.writing) {
      this.writing = this.flush().finally(() => {
        this.writing = undefined;
      });
      return this.writing;
    }
    this.nextWrite ??= this.writing.then(() => {
      this.nextWrite = undefined;
      return this.writeBehind();
    });
    return this.nextWrite;
  }

  /**
   * Writes every due booking to D1 together with every event not yet there, then puts written
   * events on the webhook queue. Whatever fails stays queued here for the alarm.
   */
  private async flush(): Promise<void> {
    const now = Date.now();
    type Due = { booking_id: string; version: number; attempts: number };
    const due = this.sql
      .exec<Due>(
        "SELECT booking_id, version, attempts FROM outbox WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT ?",
        now,
        FLUSH_BATCH,
      )
      .toArray();
    const events = this.sql
      .exec<EventRow>("SELECT * FROM events WHERE stage = 'd1' ORDER BY id LIMIT ?", FLUSH_BATCH)
      .toArray();
    try {
      if (due.length > 0 || events.length > 0) {
        // Whatever the write does, the booking is committed here: a throw is just a failed attempt.
        const outcome = await this.persist(
          due.map((d) => this.load(d.booking_id)),
          events.map(toEvent),
        ).catch((error: unknown): PersistOutcome => ({ ok: false, error: errorText(error) }));
        this.settle(due, events, outcome, now);
      }
      await this.publishEvents(now);
    } finally {
      await this.scheduleAlarm(due.length === FLUSH_BATCH);
    }
  }

  /** The D1 write, bounded in time. Kept as a method so tests can inject a failing D1. */
  async persist(records: StoredBooking[], events: BookingEvent[] = []): Promise<PersistOutcome> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("D1 write timed out")), D1_WRITE_TIMEOUT_MS);
    });
    try {
      const written = await Promise.race([persistBookings(createDb(this.env.DB), records, events), timeout]);
      return { ok: true, ...written };
    } catch (error) {
      return { ok: false, error: errorText(error) };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  /** Sends events that D1 has to the webhook queue. Kept as a method so tests can inject a failure. */
  async publish(events: BookingEvent[]): Promise<void> {
    await this.env.WEBHOOK_QUEUE.sendBatch(events.map((e) => ({ body: { eventId: e.id } satisfies WebhookMessage })));
  }

  private async publishEvents(now: number): Promise<void> {
    const ready = this.sql
      .exec<EventRow>("SELECT * FROM events WHERE stage = 'queue' AND next_attempt_ms <= ? ORDER BY id LIMIT 100", now)
      .toArray();
    if (ready.length === 0) return;
    const error = await this.publish(ready.map(toEvent)).then(
      () => null,
      (e: unknown) => errorText(e),
    );
    this.ctx.storage.transactionSync(() => {
      for (const event of ready) {
        if (error === null) this.sql.exec("DELETE FROM events WHERE id = ?", event.id);
        else this.deferEvent(event, now, error);
      }
    });
  }

  private deferEvent(event: EventRow, now: number, error: string): void {
    this.sql.exec(
      "UPDATE events SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE id = ?",
      now + retryDelayMs(event.attempts + 1),
      error.slice(0, 500),
      event.id,
    );
  }

  private settle(
    due: { booking_id: string; version: number; attempts: number }[],
    events: EventRow[],
    outcome: PersistOutcome,
    now: number,
  ) {
    this.ctx.storage.transactionSync(() => {
      for (const entry of due) {
        if (outcome.ok) {
          // A change made while D1 was being written has a higher version and stays queued.
          this.sql.exec("DELETE FROM outbox WHERE booking_id = ? AND version <= ?", entry.booking_id, entry.version);
          const customerId = outcome.customerIds.get(entry.booking_id);
          const record = this.load(entry.booking_id);
          if (customerId && customerId !== record.customerId) {
            this.sql.exec(
              "UPDATE bookings SET record = ? WHERE id = ?",
              JSON.stringify({ ...record, customerId }),
              record.id,
            );
          }
        } else {
          this.sql.exec(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE booking_id = ?",
            now + retryDelayMs(entry.attempts + 1),
            outcome.error.slice(0, 500),
            entry.booking_id,
          );
        }
      }
      for (const event of events) {
        if (!outcome.ok) this.deferEvent(event, now, outcome.error);
        else if (outcome.eventsWithDeliveries.has(event.id)) {
          this.sql.exec("UPDATE events SET stage = 'queue', next_attempt_ms = 0 WHERE id = ?", event.id);
        } else this.sql.exec("DELETE FROM events WHERE id = ?", event.id);
      }
    });
    if (!outcome.ok)
      console.warn(JSON.stringify({ level: "warn", msg: "D1 write deferred to outbox", error: outcome.error }));
  }

  /** Keeps one alarm at the earliest due outbox entry or event (or now, when a full batch was just sent). */
  private async scheduleAlarm(moreDue: boolean): Promise<void> {
    const next = this.sql
      .exec<{ at: number | null }>(
        "SELECT min(at) AS at FROM (SELECT min(next_attempt_ms) AS at FROM outbox UNION ALL SELECT min(next_attempt_ms) FROM events)",
      )
      .one().at;
    if (next === null) return;
    const at = moreDue ? Date.now() : Math.max(next, Date.now());
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /** Records the webhook event of a change, inside the caller's transaction. */
  private raiseEvent(previous: BookingStatus | null, booking: StoredBooking, at: string): void {
    const type = eventTypeFor(previous, booking.status);
    this.sql.exec(
      "INSERT INTO events (id, business_id, type, payload, created_at, stage, attempts, next_attempt_ms) VALUES (?, ?, ?, ?, ?, 'd1', 0, 0)",
      newId("event", Date.parse(at)),
      booking.businessId,
      type,
      eventPayload(type, toBooking(booking), at),
      at,
    );
  }

  /** Applies a customer edit or erasure to this calendar's bookings, then writes them to D1 (after any write in flight). */
  async rewriteCustomer(command: CustomerRewrite): Promise<{ bookingIds: string[] }> {
    const result = this.ctx.storage.transactionSync(() => rewriteCustomer(this.sql, command, Date.now()));
    await this.flushAfterCommit();
    return result;
  }
}

type EventRow = {
  id: string;
  business_id: string;
  type: BookingEvent["type"];
  payload: string;
  created_at: string;
  attempts: number;
};

const toEvent = (row: EventRow): BookingEvent => ({
  id: row.id,
  businessId: row.business_id,
  type: row.type,
  payload: row.payload,
  createdAt: row.created_at,
});

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
