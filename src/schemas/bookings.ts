/**
 * The booking as the API shows it, the fields of a booking request (also the operator import's),
 * and the filters of a bookings list (also a provider's).
 */

import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { cursorListOf, cursorQuery } from "../lists/cursor";
import { paginationQuery } from "../lists/pagination";
import type { LinkedBooking } from "../manage-links/present";
import { bookingStatuses, conflictKinds } from "../types/booking";
import { customerEmail, customerName, customerPhone } from "./fields";
import { AnswersSchema, BookingAnswersSchema } from "./questions";

export const BookingStatusSchema = z.enum(bookingStatuses).openapi("BookingStatus");

/** The fields of a booking request, before the rule that ties them to `holdId`. */
export const BookingRequestFields = z.strictObject({
  serviceId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "Required unless `holdId` is sent.", example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
  customerName,
  customerEmail,
  customerPhone: customerPhone.optional(),
  startTime: utcDateTime.optional().openapi({
    description: `Required unless \`holdId\` is sent. ${utcDateTimeRule}`,
    example: "2026-12-01T10:00:00Z",
  }),
  endTime: utcDateTime.optional().openapi({
    description: `startTime plus the service's durationMinutes, exactly; required unless \`holdId\` is sent. ${utcDateTimeRule}`,
    example: "2026-12-01T10:30:00Z",
  }),
  notes: z.string().max(2000).optional().openapi({ example: "First visit." }),
  answers: AnswersSchema.optional(),
  providerId: z.string().min(1).max(64).optional().openapi({
    description:
      "Who should perform it: one of the service's `providerIds`. Omitted on a service with providers, the API assigns the free provider with the fewest bookings that local day (ties by id).",
  }),
  holdId: z.string().min(1).max(64).optional().openapi({
    description:
      "Book the seat of a live hold (`hld_…`): service, times and provider come from the hold (sending different ones is a 422). An expired, released or consumed hold is a `409 hold_expired`.",
  }),
});

/** Without a hold, service and times are required; checked even when other fields fail, so every gap is listed. */
const withoutHold = {
  message: "Required without holdId.",
  when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null,
};

export const CreateBookingSchema = BookingRequestFields.refine(
  (b) => b.holdId !== undefined || b.serviceId !== undefined,
  {
    ...withoutHold,
    path: ["serviceId"],
  },
)
  .refine((b) => b.holdId !== undefined || b.startTime !== undefined, { ...withoutHold, path: ["startTime"] })
  .refine((b) => b.holdId !== undefined || b.endTime !== undefined, { ...withoutHold, path: ["endTime"] })
  .openapi("CreateBooking");

/** One reason a booking stopped fitting (docs/staff-calendars.md, "Conflicts"). */
export const BookingConflictSchema = z
  .object({
    kind: z.enum(conflictKinds).openapi({
      description:
        "`calendar_busy`: the person's own calendar shows them busy; `outside_hours`: outside their (or a room's) weekly hours now; `time_off`: on a day they are off; `resource_closed`: the room is closed then.",
    }),
    detectedAt: utcTimestamp,
    detail: z.string().openapi({ example: "The provider's own calendar shows them busy from 10:00 to 11:00 UTC." }),
  })
  .openapi("BookingConflict");

export const BookingSchema = z
  .object({
    id: z.string().openapi({ example: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    serviceId: z.string(),
    providerId: z.string().nullable().openapi({
      description: "Who performs it; null for a service without providers and for a team (`providerMode: all`).",
      example: null,
    }),
    providerIds: z.array(z.string()).openapi({
      description: "Everyone claimed for it, always an array: `[]`, the one provider, or every provider of a team.",
      example: [],
    }),
    resourceIds: z.array(z.string()).openapi({
      description: "The resources (`res_…`) it takes a unit of, as its service needed when it was booked.",
      example: [],
    }),
    customerId: z.string(),
    customerName: z.string(),
    customerEmail: z.string(),
    customerPhone: z.string().nullable(),
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    notes: z.string().nullable(),
    answers: BookingAnswersSchema,
    appointmentId: z.string().nullable().openapi({
      description:
        "The visit (`apt_…`, `POST /appointments`) this booking is a segment of; null for a booking on its own.",
      example: null,
    }),
    seriesId: z.string().nullable().openapi({
      description: "The series (`ser_…`, `POST /series`) this booking is an occurrence of; null otherwise.",
      example: null,
    }),
    status: BookingStatusSchema,
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
    cancelledAt: utcTimestamp.nullable(),
    cancellationReason: z.string().nullable(),
    conflicts: z.array(BookingConflictSchema).openapi({
      description:
        "Why the booking no longer fits, if it stopped fitting after it was made: the person's own calendar shows them busy, or their hours, days off or a room's changed under it. `[]` when none, and always for a cancelled booking. Moving or cancelling it clears them; so does the cause going away.",
      example: [],
    }),
    manageUrl: z.string().nullable().openapi({
      description:
        "The customer's own link to view, move or cancel this booking without an API key (`GET /manage/{token}`): the same on every read, until 7 days after the end. Null once the booking is cancelled or its customer erased, and when the deployment has no link secret.",
      example:
        "https://bookings.example.com/api/v1/manage/bkg_01jd3k5v7q8r9s0t1u2v3w4x5y.q3ZbWm4yS6Hn0xK2Vf9tLrP8cJdE1uAoYiTgBzQwX5M",
    }),
  })
  .openapi("Booking") satisfies z.ZodType<LinkedBooking>;

/** Why a booking is cancelled (optional), as a cancel request sends it. */
export const cancellationReason = z.string().trim().min(1).max(500).optional().openapi({ example: "Customer is ill." });

export const BookingListSchema = cursorListOf(BookingSchema, "BookingList");

/** Query parameters of a bookings list: page, limit and the filters. */
export const bookingListQuery = {
  ...paginationQuery,
  status: BookingStatusSchema.optional(),
  serviceId: z.string().min(1).max(64).optional(),
  customerId: z.string().min(1).max(64).optional(),
  from: utcDateTime.optional().openapi({
    description: `Only appointments starting at or after this instant. ${utcDateTimeRule}`,
    example: "2026-12-01T00:00:00Z",
  }),
  to: utcDateTime.optional().openapi({
    description: `Only appointments starting before this instant; after \`from\` when both are given. ${utcDateTimeRule}`,
    example: "2026-12-08T00:00:00Z",
  }),
  conflicted: z.enum(["true", "false"]).optional().openapi({
    description: "`true`: only bookings with a conflict (they stopped fitting); `false`: only those without.",
  }),
  ...cursorQuery(["2026-12-01T09:00:00.000Z", "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y"]),
};

/** `data` of the `booking.conflict` and `booking.conflict_resolved` webhook events. */
export const BookingConflictEventSchema = z
  .object({
    bookingId: z.string().openapi({ example: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    providerId: z
      .string()
      .optional()
      .openapi({ description: "The person whose calendar found it (absent for a room's `resource_closed`)." }),
    resourceId: z
      .string()
      .optional()
      .openapi({ description: "`resource_closed` only: the room whose hours no longer cover the booking." }),
    conflict: BookingConflictSchema,
    resolvedAt: utcTimestamp.optional().openapi({ description: "`booking.conflict_resolved` only." }),
    reason: z.enum(["cause_gone", "booking_changed"]).optional().openapi({
      description:
        "`booking.conflict_resolved` only: `cause_gone` (the busy event was deleted or moved, the person's or room's hours restored) or `booking_changed` (the booking moved or was cancelled).",
    }),
  })
  .openapi("BookingConflictEvent");
