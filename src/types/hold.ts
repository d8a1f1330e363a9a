/** A hold: a seat kept for a few minutes while a customer pays or fills a form. */

/** The states of a hold; only HELD takes a seat. */
export type HoldStatus = "HELD" | "CONSUMED" | "RELEASED" | "EXPIRED";

/** A hold as the API shows it. */
export type Hold = {
  id: string;
  serviceId: string;
  providerId: string | null;
  startTime: string;
  endTime: string;
  expiresAt: string;
  status: HoldStatus;
  /** The booking it became, once CONSUMED. */
  bookingId: string | null;
  createdAt: string;
};
