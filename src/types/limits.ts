/** Booking limits as services and providers store them (absent or null: no limit). */

/** Bookings of a service per local day and per ISO week in its zone. */
export type ServiceLimits = { perDay?: number | null; perWeek?: number | null };

/** A provider's bookings of every service per local day in their zone. */
export type ProviderLimits = { perDay?: number | null };

/**
 * A service's booking limits and assignment rule as its calendar holds them: bookings per local
 * day and ISO week, upcoming bookings per customer e-mail, who an unnamed booking goes to.
 * Absent: none, and `first`.
 */
export type ServiceLimitSettings = {
  limits?: ServiceLimits;
  maxActivePerCustomer?: number | null;
  assignment?: Assignment;
};

/** Who an unnamed booking goes to: the fewest that day (`first`), or the fewest of the service that week (`balanced`). */
export type Assignment = "first" | "balanced";
