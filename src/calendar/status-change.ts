/**
 * Status changes (and notes edits) of a booking, in one synchronous transaction: the seat is
 * freed in the same step that moves the booking out of a status that holds capacity.
 */
import { toBooking } from "../bookings/booking";
import type { StoredBooking } from "./persist";
import type { CalendarTables } from "./tables";
import { canTransition } from "./transitions";
import type { CalendarResult, TransitionCommand } from "./types";

/** Applies `command` to its booking, or says why not. */
export function changeStatus(tables: CalendarTables, command: TransitionCommand, now: number): CalendarResult {
  const current = tables.reservations.find(command.bookingId);
  if (!current) return { ok: false, refusal: { code: "not_found", detail: `No booking ${command.bookingId}.` } };
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
  const next: StoredBooking = { ...current, updatedAt: at, version: current.version + 1 };
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
    next.status = command.status;
    if (command.status === "CANCELLED") {
      next.cancelledAt = at;
      next.cancellationReason = command.cancellationReason ?? null;
    }
  }
  if (command.notes !== undefined) next.notes = command.notes;

  tables.reservations.update(current, next);
  tables.outbox.enqueue(next.id, next.version, now);
  tables.events.raise(current.status, next, at);
  return { ok: true, booking: toBooking(next), version: next.version, replayed: false };
}
