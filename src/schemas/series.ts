/** A series (`ser_…`): one service at the same local time on every occurrence of a rule. */
import { MAX_OCCURRENCES, MAX_SERIES_DAYS } from "../calendar/rules";
import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { BookingSchema, cancellationReason } from "./bookings";
import { customerEmail, customerName, customerPhone } from "./fields";
import { AnswersSchema } from "./questions";

export const CreateSeriesSchema = z
  .strictObject({
    serviceId: z.string().min(1).max(64).openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    providerId: z.string().min(1).max(64).optional().openapi({
      description:
        "Who performs every occurrence: one of the service's `providerIds`; omitted, each occurrence is assigned as for `POST /bookings`.",
    }),
    customerName,
    customerEmail,
    customerPhone: customerPhone.optional(),
    notes: z.string().max(2000).optional().openapi({ example: "Knee, after surgery." }),
    answers: AnswersSchema.optional(),
    startTime: utcDateTime.openapi({
      description: `The first occurrence's start: a slot of the service. ${utcDateTimeRule}`,
      example: "2026-12-01T10:00:00Z",
    }),
    endTime: utcDateTime.openapi({
      description: `The first occurrence's end: startTime plus the service's durationMinutes. ${utcDateTimeRule}`,
      example: "2026-12-01T10:30:00Z",
    }),
    recurrence: z
      .string()
      .min(1)
      .max(200)
      .openapi({
        description: `An RFC 5545 RRULE value (an \`RRULE:\` prefix is accepted): \`FREQ\` DAILY, WEEKLY or MONTHLY, \`INTERVAL\` 1–12 (default 1), and exactly one of \`COUNT\` (2–${MAX_OCCURRENCES}) or \`UNTIL\` (UTC, e.g. \`20270301T000000Z\`, or a date). At most ${MAX_OCCURRENCES} occurrences, none starting more than ${MAX_SERIES_DAYS} days ahead. Every occurrence keeps the first one's wall-clock time in the service's time zone.`,
        example: "FREQ=WEEKLY;COUNT=4",
      }),
    onConflict: z.enum(["reject", "skip"]).default("reject").openapi({
      description:
        "`reject` (default): every occurrence or none — a 409 lists every conflicting one. `skip`: the free occurrences are booked and the others listed in `skipped`.",
    }),
  })
  .openapi("CreateSeries");

const SkippedSchema = z
  .object({ startTime: utcTimestamp, endTime: utcTimestamp, reason: z.string() })
  .openapi("SkippedOccurrence");

export const SeriesSchema = z
  .object({
    id: z.string().openapi({ example: "ser_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    serviceId: z.string(),
    recurrence: z.string().openapi({ example: "FREQ=WEEKLY;COUNT=4" }),
    bookings: z.array(BookingSchema).openapi({ description: "Its occurrences by start: one booking each." }),
    skipped: z.array(SkippedSchema).openapi({ description: "Occurrences not booked (`onConflict: skip`), and why." }),
  })
  .openapi("Series");

export const CancelSeriesSchema = z
  .strictObject({
    from: utcDateTime.optional().openapi({
      description: `Cancel the occurrences starting at or after this instant; default now. ${utcDateTimeRule}`,
      example: "2026-12-01T00:00:00Z",
    }),
    reason: cancellationReason,
  })
  .openapi("CancelSeries");
