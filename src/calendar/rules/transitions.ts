import type { BookingStatus } from "../../domain/booking";

/** Allowed status changes (docs/api-behaviour.md, "Booking statuses"). PENDING and CONFIRMED hold capacity. */
export const allowedTransitions: Record<BookingStatus, readonly BookingStatus[]> = {
  PENDING: ["CONFIRMED", "CANCELLED"],
  CONFIRMED: ["CANCELLED", "COMPLETED", "NO_SHOW"],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
};

/** Whether a booking in `from` may move to `to`. */
export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return allowedTransitions[from].includes(to);
}
