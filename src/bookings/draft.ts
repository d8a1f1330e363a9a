import type { CreateBookingCommand } from "../calendar";
import type { Answers } from "../domain/questions";

/** The calendar's view of a booking request body (absent optional fields become null). */
export function draftOf(body: {
  customerName: string;
  customerEmail: string;
  customerPhone?: string;
  startTime: string;
  endTime: string;
  notes?: string;
  answers?: Answers;
}): CreateBookingCommand["booking"] {
  return {
    customerName: body.customerName,
    customerEmail: body.customerEmail,
    customerPhone: body.customerPhone ?? null,
    startTime: body.startTime,
    endTime: body.endTime,
    notes: body.notes ?? null,
    ...(body.answers ? { answers: body.answers } : {}),
  };
}
