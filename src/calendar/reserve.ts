/**
 * Reserving: the critical section of a new booking. The rules are checked and the seat is taken
 * in one synchronous transaction (the caller's `transactionSync`), with no await in between.
 */
import { toBooking } from "../domain/booking";
import { newId } from "../lib/ids";
import { priorAnswer } from "./idempotency-records";
import type { StoredBooking } from "./persist";
import { blockedSpan, checkCapacity, checkRequest } from "./rules";
import type { CalendarTables } from "./tables";
import type { CalendarResult, CreateBookingCommand } from "./types";

/** Checks `command` against the rules and, if it passes, stores the reservation, its outbox entry and event. */
export function reserve(tables: CalendarTables, command: CreateBookingCommand, now: number): CalendarResult {
  const { service, booking, idempotency } = command;
  const { reservations } = tables;
  const prior = priorAnswer(tables.idempotency, reservations, idempotency, now);
  if (prior) return prior;

  const stale = tables.serviceVersion.stale(service.version);
  if (stale) return { ok: false, refusal: stale };

  const start = Date.parse(booking.startTime);
  const end = Date.parse(booking.endTime);
  const violation = checkRequest(service, start, end, now);
  if (violation?.kind === "invalid") {
    return { ok: false, refusal: { code: "validation_failed", ...violation } };
  }
  if (violation) {
    return { ok: false, refusal: { code: "slot_unavailable", reason: violation.reason, detail: violation.detail } };
  }

  const blocked = blockedSpan(service, start, end);
  const full = checkCapacity(service, reservations.holdingOverlapping(blocked).length);
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
  reservations.insert(record, blocked);
  tables.outbox.enqueue(record.id, record.version, now);
  tables.events.raise(null, record, createdAt);
  if (idempotency) {
    tables.idempotency.remember(idempotency.key, { requestHash: idempotency.requestHash, bookingId: record.id }, now);
  }
  return { ok: true, booking: toBooking(record), version: record.version, replayed: false };
}
