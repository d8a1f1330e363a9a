/** A waitlist entry (`wtl_…`): a customer queued for a full slot, offered a hold when a seat frees. */

import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { cursorListOf } from "../lists/cursor";
import type { WaitlistEntry } from "../types/waitlist";
import { waitlistStatuses } from "../types/waitlist";
import { customerEmail, customerName } from "./fields";

export const WaitlistStatusSchema = z.enum(waitlistStatuses).openapi("WaitlistStatus");

export const JoinWaitlistSchema = z
  .strictObject({
    serviceId: z.string().min(1).max(64).openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    providerId: z.string().min(1).max(64).optional().openapi({
      description: "Wait for this provider's seat only; omitted, a seat with any of the service's providers.",
    }),
    startTime: utcDateTime.openapi({
      description: `The slot's start. ${utcDateTimeRule}`,
      example: "2026-12-01T10:00:00Z",
    }),
    endTime: utcDateTime.openapi({
      description: `The slot's end: startTime plus the service's durationMinutes. ${utcDateTimeRule}`,
      example: "2026-12-01T10:30:00Z",
    }),
    customerName,
    customerEmail,
  })
  .openapi("JoinWaitlist");

export const WaitlistEntrySchema = z
  .object({
    id: z.string().openapi({ example: "wtl_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    serviceId: z.string(),
    providerId: z.string().nullable(),
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    customerName: z.string(),
    customerEmail: z.string(),
    status: WaitlistStatusSchema,
    position: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Place in the slot's queue (1 = next) while WAITING; null otherwise." }),
    holdId: z.string().nullable().openapi({
      description: "The hold offered (`hld_…`, kept 15 minutes; book it with `POST /bookings {holdId}`), once OFFERED.",
    }),
    bookingId: z.string().nullable().openapi({ description: "The booking the offer became, once BOOKED." }),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("WaitlistEntry") satisfies z.ZodType<WaitlistEntry>;

export const WaitlistListSchema = cursorListOf(WaitlistEntrySchema, "WaitlistList");

export const waitlistListQuery = {
  serviceId: z.string().min(1).max(64).openapi({
    description: "The service whose waitlist to list (required).",
    example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y",
  }),
  status: WaitlistStatusSchema.optional(),
};
