/**
 * A booking that stops fitting (docs/staff-calendars.md, "Conflicts"): what no longer holds, when
 * it was found, and a sentence saying so. Each is keyed by the booking, the calendar that found
 * it (a person's or a room's) and its kind, so a cause found again at every sync stays one.
 */

export const conflictKinds = ["calendar_busy", "outside_hours", "time_off", "resource_closed"] as const;
export type ConflictKind = (typeof conflictKinds)[number];

/** A conflict as a booking answer carries it. */
export type BookingConflict = { kind: ConflictKind; detectedAt: string; detail: string };
