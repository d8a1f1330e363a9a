/** A visit (`apt_…`): several services back to back, each segment a booking of its own. */

import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { bookingStatuses } from "../types/booking";
import { BookingSchema, cancellationReason } from "./bookings";
import { customerEmail, customerName, customerPhone } from "./fields";
import { AnswersSchema } from "./questions";

/** The most segments one visit may have. */
export const MAX_SEGMENTS = 5;

const SegmentSchema = z
  .strictObject({
    serviceId: z.string().min(1).max(64).openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    providerId: z.string().min(1).max(64).optional().openapi({
      description:
        "Who should perform this segment: one of its service's `providerIds`; omitted, one is assigned as for `POST /bookings`.",
    }),
    answers: AnswersSchema.optional(),
  })
  .openapi("AppointmentSegment");

export const CreateVisitSchema = z
  .strictObject({
    customerName,
    customerEmail,
    customerPhone: customerPhone.optional(),
    notes: z.string().max(2000).optional().openapi({ example: "Cut, then colour." }),
    startTime: utcDateTime.openapi({
      description: `When the first segment starts; it must be a slot of its service. ${utcDateTimeRule}`,
      example: "2026-12-01T10:00:00Z",
    }),
    segments: z
      .array(SegmentSchema)
      .min(1)
      .max(MAX_SEGMENTS)
      .openapi({
        description: `1 to ${MAX_SEGMENTS} services in order; each starts where the previous one ends (its service's \`durationMinutes\`).`,
        example: [{ serviceId: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }],
      }),
  })
  .openapi("CreateAppointment");

export const VisitStatusSchema = z.enum(bookingStatuses).openapi({
  description:
    "CANCELLED when every segment is; otherwise the first of PENDING, CONFIRMED, COMPLETED, NO_SHOW that a segment not cancelled has.",
});

/**
 * A visit: several services booked back to back, all or none. The code says *visit*; the public
 * API says *appointment* (the `/appointments` path, its operationIds and this component's name),
 * as docs/operations.md ("Layout", its words) lists.
 */
export const VisitSchema = z
  .object({
    id: z.string().openapi({ example: "apt_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    status: VisitStatusSchema,
    bookings: z.array(BookingSchema).openapi({ description: "Its segments, in order: one booking each." }),
  })
  .openapi("Appointment");

export const CancelVisitSchema = z.strictObject({ reason: cancellationReason }).openapi("CancelAppointment");
