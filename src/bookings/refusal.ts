/** The calendar's answers as HTTP: a booking request's draft, and refusals as problems. */
import type { CalendarRefusal, CalendarResult, CreateBookingCommand } from "../calendar";
import type { Booking } from "../domain/booking";
import type { Answers } from "../domain/questions";
import { ApiError } from "../lib/errors";
import { etagOf } from "../lib/etag";

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

/** The booking of a successful calendar call, or the refusal as an HTTP problem. */
export function bookingOrThrow(result: CalendarResult): { booking: Booking; version: number; replayed: boolean } {
  if (result.ok) return result;
  throwRefusal(result.refusal);
}

/** A calendar's refusal as the HTTP problem the client gets. */
export function throwRefusal(refusal: CalendarRefusal): never {
  switch (refusal.code) {
    case "validation_failed":
      throw new ApiError("validation_failed", refusal.detail, {
        errors: [{ path: refusal.field, message: refusal.detail }],
        extensions: { reason: refusal.reason },
      });
    case "slot_unavailable":
      throw new ApiError("slot_unavailable", refusal.detail, { extensions: { reason: refusal.reason } });
    case "unavailable":
    case "service_changed":
      throw new ApiError("unavailable", refusal.detail);
    case "policy_window":
      throw new ApiError("policy_window", refusal.detail, { extensions: { until: refusal.until } });
    case "precondition_failed":
      throw new ApiError("precondition_failed", refusal.detail, { headers: { ETag: etagOf(refusal.version) } });
    default:
      throw new ApiError(refusal.code, refusal.detail);
  }
}
