/** A customer's view of their booking through a manage link, and what the link's calls take. */
import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { BookingStatusSchema, cancellationReason } from "./bookings";

const exampleToken = "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y.q3ZbWm4yS6Hn0xK2Vf9tLrP8cJdE1uAoYiTgBzQwX5M";

/** The `{token}` of a manage link. Checked by its signature, not here: any wrong token is a 404. */
export const manageTokenParam = z.object({
  token: z.string().openapi({
    param: { name: "token", in: "path" },
    description: "The token of the booking's `manageUrl`: the booking id, a dot, and its signature.",
    example: exampleToken,
  }),
});

const changeableUntil = (action: string, notice: string) =>
  utcTimestamp.nullable().openapi({
    description: `Until when this link can ${action} the booking: its start minus ${notice}. Null when the booking can no longer change (completed, no-show).`,
  });

export const ManagedBookingSchema = z
  .object({
    id: z.string().openapi({ example: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    status: BookingStatusSchema,
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    service: z.object({
      name: z.string().openapi({ example: "Haircut" }),
      durationMinutes: z.number().int(),
      timezone: z.string().openapi({ example: "Europe/Berlin" }),
    }),
    providerNames: z.array(z.string()).openapi({ description: "Who performs it, by name.", example: ["Alex"] }),
    customerName: z.string(),
    customerEmail: z.string(),
    customerPhone: z.string().nullable(),
    notes: z.string().nullable(),
    cancelledAt: utcTimestamp.nullable(),
    cancellationReason: z.string().nullable(),
    cancellableUntil: changeableUntil("cancel", "the service's `cancellationNoticeMinutes`"),
    reschedulableUntil: changeableUntil(
      "move",
      "the longer of the service's `rescheduleNoticeMinutes` and `cancellationNoticeMinutes` (a move frees the booking's time as a cancel does), so never later than `cancellableUntil`",
    ),
    manageUrl: z.string().nullable().openapi({ description: "This link; null once the booking is cancelled." }),
  })
  .openapi("ManagedBooking");

export const ManagedAvailabilitySchema = z
  .object({
    timezone: z.string(),
    from: utcTimestamp,
    to: utcTimestamp,
    slots: z.array(z.object({ startTime: utcTimestamp, endTime: utcTimestamp, bookable: z.boolean() })),
  })
  .openapi("ManagedAvailability");

export const ManagedRescheduleSchema = z
  .strictObject({
    startTime: utcDateTime.openapi({ description: utcDateTimeRule, example: "2026-12-02T11:00:00Z" }),
    endTime: utcDateTime.openapi({ description: utcDateTimeRule, example: "2026-12-02T11:30:00Z" }),
  })
  .openapi("ManagedReschedule");

export const ManagedCancelSchema = z.strictObject({ reason: cancellationReason }).openapi("ManagedCancel");
