import type { BookingDraft, SlotBookingCommand } from "../calendar";
import type { Answers } from "../types/questions";

/** A booking request body's customer, notes and answers. */
type DraftFields = {
  customerName: string;
  customerEmail: string;
  customerPhone?: string;
  notes?: string;
  answers?: Answers;
};

/** The calendar's view of the customer's side of a request (absent optional fields become null). */
export function customerDraftOf(body: DraftFields): BookingDraft {
  return {
    customerName: body.customerName,
    customerEmail: body.customerEmail,
    customerPhone: body.customerPhone ?? null,
    notes: body.notes ?? null,
    ...(body.answers ? { answers: body.answers } : {}),
  };
}

/** The calendar's view of a booking request body for a slot: its customer and its times. */
export function draftOf(body: DraftFields & { startTime: string; endTime: string }): SlotBookingCommand["booking"] {
  return { ...customerDraftOf(body), startTime: body.startTime, endTime: body.endTime };
}
