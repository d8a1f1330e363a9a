/**
 * Status changes (and notes edits) of a booking, in one synchronous transaction: the seat is
 * freed in the same step that moves the booking out of a status that holds capacity.
 */
import { type BookingRecord, canTransition, holdsCapacity, toBooking } from "../../../types/booking";
import { policyWindowRefusal } from "../../rules/policy";
import type { CalendarResult, StatusChangeCommand } from "../../types";
import { priorAnswer } from "../tables/idempotency-records";
import type { CalendarTables } from "../tables/tables";

/** The names of the fields a change sets, for the audit. */
const fieldsSet = ({ status, notes }: StatusChangeCommand) => [
  ...(status === undefined ? [] : ["status"]),
  ...(status === "CANCELLED" ? ["cancelledAt", "cancellationReason"] : []),
  ...(notes === undefined ? [] : ["notes"]),
];

/** Applies `command` to its booking, or says why not. */
export function changeStatus(tables: CalendarTables, command: StatusChangeCommand, now: number): CalendarResult {
  const current = tables.reservations.find(command.bookingId);
  if (!current) return { ok: false, refusal: { code: "not_found", detail: `No booking ${command.bookingId}.` } };
  // Committed under this key before (its answer may have been lost): the same success again.
  const prior = priorAnswer(tables, command.idempotency, now, current.id);
  if (prior) return prior;
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
  const at = new Date(now).toISOString();
  const next: BookingRecord = { ...current, updatedAt: at, version: current.version + 1 };
  if (command.status !== undefined && command.status === current.status) {
    return { ok: false, refusal: { code: "invalid_transition", detail: `The booking is ${current.status} already.` } };
  }
  if (command.status !== undefined) {
    if (!canTransition(current.status, command.status)) {
      return {
        ok: false,
        refusal: { code: "invalid_transition", detail: `A ${current.status} booking cannot become ${command.status}.` },
      };
    }
    if ((command.status === "COMPLETED" || command.status === "NO_SHOW") && now < Date.parse(current.startTime)) {
      // They describe what happened, and would free the seat of a booking still ahead.
      return {
        ok: false,
        refusal: {
          code: "invalid_transition",
          detail: `A booking cannot be ${command.status} before its startTime (${current.startTime}).`,
        },
      };
    }
    const policy =
      command.status === "CANCELLED" &&
      policyWindowRefusal("cancelled", current.startTime, command.customerNoticeMinutes, now);
    if (policy) return { ok: false, refusal: policy };
    next.status = command.status;
    if (command.status === "CANCELLED") {
      next.cancelledAt = at;
      next.cancellationReason = command.cancellationReason ?? null;
    }
  }
  if (command.notes !== undefined) next.notes = command.notes;

  tables.reservations.update(current, next);
  // A status that frees the seat frees the time claimed elsewhere too (released after the commit).
  if (holdsCapacity(current.status) && !holdsCapacity(next.status)) {
    tables.tasks.release(current.businessId, tables.reservations.claimsOf(current.id), now);
    tables.reminders.drop(current.id);
  }
  tables.idempotency.remember(command.idempotency, next.id, now);
  tables.outbox.enqueue(next.id, next.version, now);
  tables.events.raise(current.status, next, at, undefined, { actor: command.actor, fields: fieldsSet(command) });
  return { ok: true, booking: toBooking(next), version: next.version, replayed: false };
}
