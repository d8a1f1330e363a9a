/** Booking status changes (docs/api-behaviour.md, "Booking statuses"), checked over all 25 pairs. */
import { describe, expect, it } from "vitest";
import { type BookingStatus, bookingStatuses, canTransition } from "../../src/types/booking";

/** The only allowed moves: PENDING → CONFIRMED | CANCELLED; CONFIRMED → CANCELLED | COMPLETED | NO_SHOW. */
const allowed = new Set([
  "PENDING→CONFIRMED",
  "PENDING→CANCELLED",
  "CONFIRMED→CANCELLED",
  "CONFIRMED→COMPLETED",
  "CONFIRMED→NO_SHOW",
]);

const pairs: [BookingStatus, BookingStatus, boolean][] = bookingStatuses.flatMap((from) =>
  bookingStatuses.map((to): [BookingStatus, BookingStatus, boolean] => [from, to, allowed.has(`${from}→${to}`)]),
);

describe("canTransition", () => {
  it("covers all 25 pairs of the five statuses", () => {
    expect(bookingStatuses).toHaveLength(5);
    expect(pairs).toHaveLength(25);
  });

  it.each(pairs)("%s → %s is %s", (from, to, expected) => {
    expect(canTransition(from, to)).toBe(expected);
  });

  it("keeps CANCELLED, COMPLETED and NO_SHOW terminal", () => {
    for (const from of ["CANCELLED", "COMPLETED", "NO_SHOW"] as const) {
      for (const to of bookingStatuses) expect(canTransition(from, to)).toBe(false);
    }
  });
});
