/**
 * The synchronous steps of holds: placing one (the rules of a booking, then a seat until the
 * expiry; with providers a tentative seat while the person's calendar claims the time) and
 * turning one into a booking in a single transaction, so the seat is never free in between.
 */
import { toBooking } from "../domain/booking";
import type { Hold } from "../domain/hold";
import { newId } from "../lib/ids";
import { priorAnswer } from "./idempotency-records";
import type { StoredBooking } from "./persist";
import type { ClaimCommand, ProviderSnapshot } from "./provider/types";
import { firstWithSeat, TENTATIVE_MS } from "./provider-booking";
import { blockedSpan, checkCapacity, checkRequest } from "./rules";
import type { CalendarTables } from "./tables";
import type { CalendarRefusal, CalendarResult, CreateBookingCommand, ServiceSnapshot } from "./types";

/** A provider's claim for a hold outlives the hold by this much, so a conversion can confirm it in time. */
export const HOLD_CLAIM_GRACE_MS = 5 * 60_000;

export type HoldCommand = {
  holdId: string;
  service: ServiceSnapshot;
  startTime: string;
  endTime: string;
  /** How long the seat is kept, from the moment the calendar places the hold. */
  ttlMs: number;
  providers?: ProviderSnapshot[];
  providerId?: string | null;
};

export type HoldResult = { ok: true; hold: Hold } | { ok: false; refusal: CalendarRefusal };

export type HoldStep =
  | { kind: "done"; result: HoldResult }
  | { kind: "claim"; holdId: string; providerId: string; claim: ClaimCommand; tried: string[] };

const refused = (refusal: CalendarRefusal): HoldStep => ({ kind: "done", result: { ok: false, refusal } });

/** Frees holds whose time is up (their claims are released): call first in every step that counts seats. */
export function expireHolds(tables: CalendarTables, now: number): void {
  for (const claim of tables.holds.expire(now)) tables.releases.queue(claim, now);
}

/**
 * Places a hold, inside the caller's transaction: done, or a claim to make for it with the first
 * provider of `order` not in `tried` who has a seat here.
 */
export function placeHold(
  tables: CalendarTables,
  command: HoldCommand,
  order: string[],
  now: number,
  tried: string[] = [],
): HoldStep {
  expireHolds(tables, now);
  const { service } = command;
  const stale = tables.serviceVersion.stale(service.version);
  if (stale) return refused(stale);
  const expiresAt = now + command.ttlMs;
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const violation = checkRequest(service, start, end, now);
  if (violation?.kind === "invalid") return refused({ code: "validation_failed", ...violation });
  if (violation) return refused({ code: "slot_unavailable", reason: violation.reason, detail: violation.detail });
  const blocked = blockedSpan(service, start, end);
  const hold: Hold = {
    id: command.holdId,
    serviceId: service.id,
    providerId: null,
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    status: "HELD",
    bookingId: null,
    createdAt: new Date(now).toISOString(),
  };
  if (!command.providers || command.providers.length === 0) {
    const full = checkCapacity(service, tables.reservations.holdingOverlapping(blocked).length);
    if (full) return refused({ code: "slot_unavailable", reason: "fully_booked", detail: full.detail });
    tables.holds.place(hold, service.businessId, blocked);
    tables.alarm.arm(expiresAt);
    return { kind: "done", result: { ok: true, hold } };
  }
  const providerId = firstWithSeat(tables, service.capacity, order, blocked, tried);
  if (!providerId) {
    const reason = command.providerId ? "fully_booked" : "no_provider_available";
    return refused({ code: "slot_unavailable", reason, detail: "No provider has a free seat at that time." });
  }
  tables.holds.place({ ...hold, providerId }, service.businessId, blocked, {
    claimId: hold.id,
    providerId,
    tentativeUntil: now + TENTATIVE_MS,
  });
  tables.alarm.arm(now + TENTATIVE_MS);
  const claim = claimFor(command, providerId, expiresAt);
  return { kind: "claim", holdId: hold.id, providerId, claim, tried: [...tried, providerId] };
}

/** The provider calendar answered the claim of a tentative hold. */
export function settleHoldClaim(
  tables: CalendarTables,
  command: HoldCommand,
  step: Extract<HoldStep, { kind: "claim" }>,
  answer: { ok: true } | { ok: false; reason: string; detail: string } | "no_answer",
  order: string[],
  now: number,
): HoldStep {
  const seat = tables.holds.seat(step.holdId);
  if (!seat) return refused({ code: "unavailable", detail: "The hold took too long to confirm; nothing is held." });
  if (answer === "no_answer") {
    const claim = tables.holds.discard(step.holdId);
    if (claim) tables.releases.queue(claim, now);
    return refused({ code: "unavailable", detail: "The provider's calendar did not answer; nothing is held. Retry." });
  }
  if (answer.ok) {
    tables.holds.confirm(step.holdId);
    const hold = tables.holds.find(step.holdId, now) as Hold;
    tables.alarm.arm(Date.parse(hold.expiresAt));
    return { kind: "done", result: { ok: true, hold } };
  }
  const next = command.providerId
    ? undefined
    : firstWithSeat(tables, command.service.capacity, order, seat.blocked, step.tried);
  tables.holds.discard(step.holdId);
  if (!next) {
    const reason = command.providerId ? (answer.reason as "provider_busy") : "no_provider_available";
    return refused({ code: "slot_unavailable", reason, detail: answer.detail });
  }
  // Every provider tried so far stays tried: the next attempt moves down the order, never back.
  return placeHold(tables, { ...command, providerId: undefined }, order, now, step.tried);
}

/**
 * Turns a live hold into a booking in one transaction: the hold's seat row goes and the
 * booking's comes over the same span, so the seat is never free in between.
 */
export function consumeHold(
  tables: CalendarTables,
  command: CreateBookingCommand & { holdId: string },
  now: number,
): CalendarResult {
  // A conversion whose answer was lost is answered again, not refused as a consumed hold.
  const prior = priorAnswer(tables.idempotency, tables.reservations, command.idempotency, now);
  if (prior) return prior;
  expireHolds(tables, now);
  const hold = tables.holds.find(command.holdId, now);
  const seat = hold?.status === "HELD" ? tables.holds.seat(command.holdId) : undefined;
  if (!hold || !seat) {
    const detail = hold ? `The hold is ${hold.status}.` : "No live hold with this id.";
    return { ok: false, refusal: { code: "hold_expired", detail } };
  }
  const { service, booking } = command;
  const record: StoredBooking = {
    id: newId("booking", now),
    businessId: service.businessId,
    serviceId: service.id,
    providerId: hold.providerId,
    customerId: command.customerId ?? newId("customer", now),
    customerName: booking.customerName,
    customerEmail: booking.customerEmail,
    customerPhone: booking.customerPhone,
    startTime: hold.startTime,
    endTime: hold.endTime,
    notes: booking.notes,
    status: service.requiresConfirmation ? "PENDING" : "CONFIRMED",
    version: 1,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
    cancelledAt: null,
    cancellationReason: null,
    holdId: hold.id,
  };
  const claim = tables.holds.end(hold.id, "CONSUMED", record.id);
  tables.reservations.insert(
    record,
    seat.blocked,
    claim ? { claimId: claim.claimId, tentativeUntil: null } : undefined,
  );
  tables.outbox.enqueue(record.id, record.version, now);
  tables.events.raise(null, record, record.createdAt);
  if (command.idempotency) {
    const { key, requestHash } = command.idempotency;
    tables.idempotency.remember(key, { requestHash, bookingId: record.id }, now);
  }
  // The person keeps the hold's claim for the booking, even if they left the service meanwhile.
  if (claim) {
    const confirm = {
      claimId: claim.claimId,
      serviceId: service.id,
      start: Date.parse(hold.startTime),
      end: Date.parse(hold.endTime),
      blockedStart: seat.blocked.start,
      blockedEnd: seat.blocked.end,
      capacity: service.capacity,
    };
    tables.releases.queueConfirm(claim, confirm, now);
  }
  return { ok: true, booking: toBooking(record), version: record.version, replayed: false };
}

function claimFor(command: HoldCommand, providerId: string, expiresAt: number): ClaimCommand {
  const start = Date.parse(command.startTime);
  const end = Date.parse(command.endTime);
  const blocked = blockedSpan(command.service, start, end);
  const provider = command.providers?.find((p) => p.id === providerId);
  if (!provider) throw new RangeError(`Provider ${providerId} is not one of the service's providers.`);
  return {
    claimId: command.holdId,
    serviceId: command.service.id,
    start,
    end,
    blockedStart: blocked.start,
    blockedEnd: blocked.end,
    capacity: command.service.capacity,
    expiresAt: expiresAt + HOLD_CLAIM_GRACE_MS,
    provider,
  };
}
