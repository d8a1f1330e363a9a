/** The hold as the API shows it, and the body that places one. */
import { utcDateTime, utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";

export const CreateHoldSchema = z
  .strictObject({
    serviceId: z.string().min(1).max(64).openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    startTime: utcDateTime.openapi({ example: "2026-12-01T10:00:00Z" }),
    endTime: utcDateTime.openapi({ example: "2026-12-01T10:30:00Z" }),
    providerId: z.string().min(1).max(64).optional().openapi({
      description: "One of the service's `providerIds`; omitted on a service with providers, one is assigned.",
    }),
    ttlSeconds: z.number().int().min(60).max(1800).default(600).openapi({
      description: "How long the seat is kept, 60–1800 seconds (default 600).",
      example: 600,
    }),
  })
  .openapi("CreateHold");

export const HoldSchema = z
  .object({
    id: z.string().openapi({ example: "hld_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    serviceId: z.string(),
    providerId: z.string().nullable(),
    startTime: utcTimestamp,
    endTime: utcTimestamp,
    expiresAt: utcTimestamp,
    status: z.enum(["HELD", "CONSUMED", "RELEASED", "EXPIRED"]).openapi({
      description:
        "HELD takes its seat until `expiresAt`; CONSUMED became `bookingId`; RELEASED and EXPIRED hold nothing.",
    }),
    bookingId: z.string().nullable(),
    createdAt: utcTimestamp,
  })
  .openapi("Hold");
