/**
 * What an erased customer looks like: the placeholders that replace their name, e-mail and phone
 * wherever a booking of theirs is kept (D1, the calendars, queued events), and how an erased
 * booking is told apart.
 */
import type { BookingRecord } from "./booking";

/** The customer details a booking carries. */
export type CustomerDetails = Pick<BookingRecord, "customerName" | "customerEmail" | "customerPhone">;

/** What an erased customer's name, e-mail and phone become (RFC 2606 `.invalid`: never deliverable). */
export function erasedDetails(customerId: string): CustomerDetails {
  return { customerName: "Erased customer", customerEmail: `erased-${customerId}@invalid`, customerPhone: null };
}

/** Whether a booking's customer was erased (clients cannot use `.invalid` addresses). */
export const isErasedEmail = (email: string) => email.toLowerCase().endsWith("@invalid");
