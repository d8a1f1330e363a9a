import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { BookingStatus } from "../db/schema";
import { newId } from "../lib/ids";
import { toBooking } from "../routes/bookings/schemas";
import { type PersistOutcome, retryDelayMs } from "./outbox";
import { persistBookings, type StoredBooking } from "./persist";
import { blockedSpan, checkCapacity, checkRequest, checkTiming, type ServiceRules, slotsBetween } from "./rules";
import { migrate } from "./storage";
import { canTransition } from "./transitions";
import type {
  CalendarCounters,
  CalendarResult,
  CalendarSlot,
  CalendarSnapshot,
  CreateBookingCommand,
  TransitionCommand,
} from "./types";

/** How long a D1 write may take before the booking is left to the outbox alarm. */
const D1_WRITE_TIMEOUT_MS = 5_000;
const FLUSH_BATCH = 25;
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
    if (result.ok && !result.replayed) await this.flush([result.booking.id]);
    if (!result.ok) return result;
    const stored = this.load(result.booking.id);
    return { ...result, booking: toBooking(stored), version: stored.version };
  }

  /** Applies a status change (or a notes edit) to a booking of this calendar. */
  async transition(command: TransitionCommand): Promise<CalendarResult> {
    const result = this.ctx.storage.transactionSync(() => this.applyTransition(command, new Date().toISOString()));
    if (result.ok && !result.replayed) await this.flush([result.booking.id]);
    return result;
  }

  /** The live slot calendar for slots starting in `[from, to)`. */
  async availability(rules: ServiceRules, from: number, to: number): Promise<CalendarSlot[]> {
    const now = Date.now();
    const slots = slotsBetween(rules, from, to);
    if (slots.length === 0) return [];
    const first = blockedSpan(rules, (slots[0] as { start: number }).start, 0).start;
    const last = blockedSpan(rules, 0, (slots.at(-1) as { end: number }).end).end;
    const reservations = this.sql
      .exec<{ s: number; e: number }>(
        `SELECT blocked_start_ms AS s, blocked_end_ms AS e FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?`,
        first - this.maxBlockedMs - 1,
        last,
        first,
      )
      .toArray();
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
    await this.flush();
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
    const overlapping = this.sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM bookings
         WHERE status IN ('PENDING', 'CONFIRMED') AND blocked_start_ms > ? AND blocked_start_ms < ? AND blocked_end_ms > ?`,
        blocked.start - this.maxBlockedMs - 1,
        blocked.end,
        blocked.start,
      )
      .one().n;
    const full = checkCapacity(service, overlapping);
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
    if (command.expectedVersion !== undefined && command.expectedVersion !== current.version) {
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
    return { ok: true, booking: toBooking(next), version: next.version, replayed: false };
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

  // --- D1 outbox ---------------------------------------------------------------------------

  /** Writes the given (or all due) outbox entries to D1; failures are rescheduled. */
  private async flush(ids?: string[]): Promise<void> {
    const now = Date.now();
    const due = ids
      ? this.sql
          .exec<{ booking_id: string; version: number; attempts: number }>(
            `SELECT booking_id, version, attempts FROM outbox WHERE booking_id IN (${ids.map(() => "?").join(",")})`,
            ...ids,
          )
          .toArray()
      : this.sql
          .exec<{ booking_id: string; version: number; attempts: number }>(
            "SELECT booking_id, version, attempts FROM outbox WHERE next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT ?",
            now,
            FLUSH_BATCH,
          )
          .toArray();
    try {
      if (due.length > 0) {
        // Whatever the write does, the booking is committed here: a throw is just a failed attempt.
        const outcome = await this.persist(due.map((d) => this.load(d.booking_id))).catch(
          (error: unknown): PersistOutcome => ({
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          }),
        );
        this.settle(due, outcome, now);
      }
    } finally {
      await this.scheduleAlarm(ids === undefined && due.length === FLUSH_BATCH);
    }
  }

  /** The D1 write, bounded in time. Kept as a method so tests can inject a failing D1. */
  async persist(records: StoredBooking[]): Promise<PersistOutcome> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("D1 write timed out")), D1_WRITE_TIMEOUT_MS);
    });
    try {
      const customerIds = await Promise.race([persistBookings(createDb(this.env.DB), records), timeout]);
      return { ok: true, customerIds };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  private settle(
    due: { booking_id: string; version: number; attempts: number }[],
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
    });
    if (!outcome.ok)
      console.warn(JSON.stringify({ level: "warn", msg: "D1 write deferred to outbox", error: outcome.error }));
  }

  /** Keeps one alarm at the earliest due outbox entry (or now, when a full batch was just sent). */
  private async scheduleAlarm(moreDue: boolean): Promise<void> {
    const next = this.sql.exec<{ at: number | null }>("SELECT min(next_attempt_ms) AS at FROM outbox").one().at;
    if (next === null) return;
    const at = moreDue ? Date.now() : next;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}
