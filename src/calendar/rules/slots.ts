/** The shapes of the slot calendar, as the pure rules count it. */

/** One slot of the live calendar. */
export type CalendarSlot = {
  startTime: string;
  endTime: string;
  capacity: number;
  booked: number;
  /** Seats kept by live holds. */
  held: number;
  remaining: number;
  bookable: boolean;
  /** Why a slot that time allows is not bookable, where the slot calendar knows: a booking limit. */
  reason?: "limit_reached";
};

/**
 * A slot as the service's calendar counts it, with the rows among its `booked` and `held` that
 * have no provider: on a service with providers they take a seat in every provider's session.
 */
export type LiveSlot = CalendarSlot & { unassigned: { booked: number; held: number } };
