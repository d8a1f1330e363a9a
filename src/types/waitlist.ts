/** A waitlist entry: a customer queued for a full slot, offered a hold when a seat frees. */

/**
 * WAITING in the queue; OFFERED a hold; then BOOKED (the hold became a booking), EXPIRED (the
 * offer lapsed, or the slot began while it waited) or CANCELLED.
 */
export const waitlistStatuses = ["WAITING", "OFFERED", "BOOKED", "EXPIRED", "CANCELLED"] as const;
export type WaitlistStatus = (typeof waitlistStatuses)[number];

/** A waitlist entry as the API shows it. */
export type WaitlistEntry = {
  id: string;
  serviceId: string;
  providerId: string | null;
  startTime: string;
  endTime: string;
  customerName: string;
  customerEmail: string;
  status: WaitlistStatus;
  /** The place in its slot's queue (1 = next) while WAITING; null otherwise. */
  position: number | null;
  /** The hold offered (a seat kept for 15 minutes), once OFFERED. */
  holdId: string | null;
  /** The booking the offer became, once BOOKED. */
  bookingId: string | null;
  createdAt: string;
  updatedAt: string;
};

/** Where a page of a waitlist starts: some entries in, or right after or before an entry (queue order). */
export type WaitlistFrom = { kind: "offset"; offset: number } | { kind: "after" | "before"; id: string };

/** A page of a waitlist as its calendar reads it (`before`: nearest first, one more than asked when there is one). */
export type WaitlistRows = { entries: WaitlistEntry[]; total: number };
