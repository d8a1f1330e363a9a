/**
 * A booking for a service with providers: the seat is decided here, the person's time by that
 * person's ProviderCalendar (docs/consistency.md, "Booking a person: the protocol between the two
 * calendars"). Two synchronous transactions here with one RPC between them:
 *
 * 1. `reserveTentative`: the rules of the service, then a tentative row (it holds the seat and
 *    the provider's share of it) with a deadline, and an alarm at that deadline;
 * 2. `ProviderCalendar.claim` (idempotent by claim id) decides the person's time;
 * 3. `confirmTentative` turns the row into a booking (outbox, event, idempotency record), or
 *    `nextCandidate` tries the next provider, or drops the row; an unanswered claim
 *    (`abandonTentative`) drops the row and owes the provider calendar a release.
 *
 * A crash between the steps leaves a tentative row whose deadline passes: the alarm drops it and
 * releases the claim (a tombstone there refuses a late duplicate), so a refused or abandoned
 * request holds nothing anywhere once the deadline has passed.
 */
import { toBooking } from "../domain/booking";
import { newId } from "../lib/ids";
import { priorAnswer } from "./idempotency-records";
import type { StoredBooking } from "./persist";
import type { ProviderReason } from "./provider/reasons";
import type { ClaimCommand, ProviderSnapshot } from "./provider/types";
import { blockedSpan, checkRequest, type Span } from "./rules";
import type { CalendarTables } from "./tables";
import type { CalendarResult, CreateBookingCommand } from "./types";

/** How long a tentative row may wait for its provider calendar before the alarm gives it up. */
export const TENTATIVE_MS = 30_000;

/** The next thing to do: answer, or claim `providerId`'s time for the tentative row. */
export type ProviderStep =
  | { kind: "done"; result: CalendarResult }
  | { kind: "claim"; bookingId: string; claim: ClaimCommand; providerId: string; tried: string[] };

/** Refusal of a booking with a provider, as the calendar answers it. */
const refuse = (reason: "outside_working_hours" | "fully_booked" | ProviderReason, detail: string): ProviderStep => ({
  kind: "done",
  result: { ok: false, refusal: { code: "slot_unavailable", reason, detail } },
});

/**
 * Step 1, inside the caller's transaction: idempotent replay, rules 2–4 of the service, then the
 * first of `order` (providers in preference order) with a free seat in its session here.
 */
export function reserveTentative(
  tables: CalendarTables,
  command: CreateBookingCommand,
  order: string[],
  now: number,
): ProviderStep {
  const { service, booking, idempotency } = command;
  const prior = priorAnswer(tables.idempotency, tables.reservations, idempotency, now);
  if (prior) return { kind: "done", result: prior };
  const stale = tables.serviceVersion.stale(service.version);
  if (stale) return { kind: "done", result: { ok: false, refusal: stale } };
  for (const claim of tables.holds.expire(now)) tables.releases.queue(claim, now);
  const start = Date.parse(booking.startTime);
  const end = Date.parse(booking.endTime);
  const violation = checkRequest(service, start, end, now);
  if (violation?.kind === "invalid") {
    return { kind: "done", result: { ok: false, refusal: { code: "validation_failed", ...violation } } };
  }
  if (violation) return refuse(violation.reason, violation.detail);

  const blocked = blockedSpan(service, start, end);
  const providerId = firstWithSeat(tables, command.service.capacity, order, blocked, []);
  if (!providerId) return noSeat(command);
  const record: StoredBooking = {
    id: newId("booking", now),
    businessId: service.businessId,
    serviceId: service.id,
    providerId,
    customerId: command.customerId ?? newId("customer", now),
    customerName: booking.customerName,
    customerEmail: booking.customerEmail,
    customerPhone: booking.customerPhone,
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    notes: booking.notes,
    status: service.requiresConfirmation ? "PENDING" : "CONFIRMED",
    version: 1,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
    cancelledAt: null,
    cancellationReason: null,
  };
  tables.reservations.insert(record, blocked, { claimId: record.id, tentativeUntil: now + TENTATIVE_MS });
  tables.alarm.arm(now + TENTATIVE_MS);
  const claim = claimFor(command, record, blocked, providerId);
  return { kind: "claim", bookingId: record.id, claim, providerId, tried: [providerId] };
}

/**
 * Step 3 after a refusal, inside the caller's transaction: the next provider in `order` with a
 * seat here takes the tentative row; with none left the row goes and the refusal is answered.
 */
export function nextCandidate(
  tables: CalendarTables,
  command: CreateBookingCommand,
  order: string[],
  step: Extract<ProviderStep, { kind: "claim" }>,
  refusal: { reason: ProviderReason; detail: string },
): ProviderStep {
  const { claim, bookingId } = step;
  if (!tables.reservations.isTentative(bookingId)) return gaveUp();
  const blocked = { start: claim.blockedStart, end: claim.blockedEnd };
  const providerId = command.providerId
    ? undefined
    : firstWithSeat(tables, command.service.capacity, order, blocked, step.tried);
  if (!providerId) {
    // A refused claim holds nothing at the provider calendar: no release is owed.
    tables.reservations.removeTentative(bookingId);
    if (command.providerId) return refuse(refusal.reason, refusal.detail);
    return refuse("no_provider_available", "None of the service's providers is free at that time.");
  }
  tables.reservations.reassign(bookingId, providerId);
  return {
    kind: "claim",
    bookingId,
    claim: { ...claim, provider: providerOf(command, providerId) },
    providerId,
    tried: [...step.tried, providerId],
  };
}

/** Step 3 after the provider calendar accepted, inside the caller's transaction. */
export function confirmTentative(
  tables: CalendarTables,
  command: CreateBookingCommand,
  bookingId: string,
  now: number,
): CalendarResult {
  if (!tables.reservations.isTentative(bookingId)) return gaveUp().result;
  tables.reservations.confirm(bookingId);
  const record = tables.reservations.load(bookingId);
  tables.outbox.enqueue(record.id, record.version, now);
  tables.events.raise(null, record, record.createdAt);
  if (command.idempotency) {
    const { key, requestHash } = command.idempotency;
    tables.idempotency.remember(key, { requestHash, bookingId: record.id }, now);
  }
  return { ok: true, booking: toBooking(record), version: record.version, replayed: false };
}

/** The provider calendar did not answer: the row goes, the claim is released, nothing is held. */
export function abandonTentative(
  tables: CalendarTables,
  step: Extract<ProviderStep, { kind: "claim" }>,
  now: number,
): CalendarResult {
  tables.reservations.removeTentative(step.bookingId);
  const businessId = step.claim.provider.businessId;
  tables.releases.queue({ businessId, providerId: step.providerId, claimId: step.claim.claimId }, now);
  return {
    ok: false,
    refusal: { code: "unavailable", detail: "The provider's calendar did not answer; nothing was booked. Retry." },
  };
}

/** The alarm's step: tentative rows past their deadline go, and their claims are released. */
export function expireTentative(tables: CalendarTables, now: number): void {
  for (const row of tables.reservations.expiredTentative(now)) {
    tables.reservations.removeTentative(row.id);
    tables.releases.queue(row, now);
  }
}

/** The first provider of `order` (not yet tried) whose session here still has a seat over `blocked`. */
export function firstWithSeat(
  tables: CalendarTables,
  capacity: number,
  order: string[],
  blocked: Span,
  tried: string[],
): string | undefined {
  return order.find((id) => !tried.includes(id) && tables.reservations.seatsTaken(id, blocked) < capacity);
}

function noSeat(command: CreateBookingCommand): ProviderStep {
  if (command.providerId) return refuse("fully_booked", "The provider's session at that time is fully booked.");
  return refuse("no_provider_available", "None of the service's providers has a free seat at that time.");
}

function gaveUp(): Extract<ProviderStep, { kind: "done" }> {
  return {
    kind: "done",
    result: {
      ok: false,
      refusal: { code: "unavailable", detail: "The booking took too long to confirm; nothing was booked. Retry." },
    },
  };
}

function providerOf(command: CreateBookingCommand, providerId: string): ProviderSnapshot {
  const provider = command.providers?.find((p) => p.id === providerId);
  if (!provider) throw new RangeError(`Provider ${providerId} is not one of the service's providers.`);
  return provider;
}

function claimFor(command: CreateBookingCommand, record: StoredBooking, blocked: Span, providerId: string) {
  return {
    claimId: record.id,
    serviceId: record.serviceId,
    start: Date.parse(record.startTime),
    end: Date.parse(record.endTime),
    blockedStart: blocked.start,
    blockedEnd: blocked.end,
    capacity: command.service.capacity,
    provider: providerOf(command, providerId),
  } satisfies ClaimCommand;
}
