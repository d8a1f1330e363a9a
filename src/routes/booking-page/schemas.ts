/** The public JSON of a booking page: what it shows of the business, its services and times, and what it sends. */
import { utcDateTime, utcDateTimeRule, utcTimestamp } from "../../lib/datetime";
import { z } from "../../lib/zod";
import { customerEmail, customerName, customerPhone } from "../../schemas/fields";
import { AnswersSchema, QuestionsSchema } from "../../schemas/questions";

/** `{slug}`: the booking page's address. Any other spelling is the same 404 as an unknown one. */
export const slugParam = z.object({
  slug: z
    .string()
    .max(64)
    .openapi({
      param: { name: "slug", in: "path" },
      description: "The business's `slug` (`GET /business`); its page must be enabled.",
      example: "demo-salon",
    }),
});

const PublicBusinessSchema = z
  .object({
    name: z.string().openapi({ example: "Demo Salon" }),
    title: z.string().openapi({ description: "The page's heading.", example: "Book at Demo Salon" }),
    locale: z.enum(["en", "de"]),
    timezone: z.string().openapi({ example: "Europe/Berlin" }),
    accentColor: z.string().nullable().openapi({ example: "#0f766e" }),
  })
  .openapi("PublicBusiness");

const PublicServiceSchema = z
  .object({
    id: z.string().openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string().openapi({ example: "Haircut" }),
    description: z.string().nullable(),
    durationMinutes: z.number().int(),
    timezone: z.string().openapi({ description: "The zone of the service's working hours.", example: "Europe/Berlin" }),
    maxAdvanceDays: z.number().int().openapi({ description: "How many days ahead it can be booked." }),
    providerMode: z.enum(["one", "all"]).openapi({
      description:
        "`one`: one of `providers` performs a booking (a customer may pick one); `all`: all of them together.",
    }),
    providers: z
      .array(z.object({ id: z.string(), name: z.string() }))
      .openapi({ description: "The active people who perform it, by name; `[]` for a service without people." }),
    questions: QuestionsSchema,
    requiresConfirmation: z
      .boolean()
      .openapi({ description: "A booking starts PENDING until the business confirms it." }),
    cancellationNoticeMinutes: z.number().int(),
    rescheduleNoticeMinutes: z.number().int(),
  })
  .openapi("PublicService");

export const PublicServicesSchema = z
  .object({ business: PublicBusinessSchema, services: z.array(PublicServiceSchema) })
  .openapi("PublicServices");

export const PublicAvailabilitySchema = z
  .object({
    serviceId: z.string(),
    timezone: z.string(),
    from: utcTimestamp,
    to: utcTimestamp,
    slots: z.array(z.object({ startTime: utcTimestamp, endTime: utcTimestamp, bookable: z.boolean() })),
  })
  .openapi("PublicAvailability");

export const CreatePublicHoldSchema = z
  .strictObject({
    serviceId: z.string().min(1).max(64).openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    providerId: z.string().min(1).max(64).optional().openapi({
      description: "One of the service's `providers`; omitted, the API assigns one who is free.",
    }),
    startTime: utcDateTime.openapi({ description: utcDateTimeRule, example: "2026-12-01T10:00:00Z" }),
    endTime: utcDateTime.openapi({
      description: "startTime plus the service's duration.",
      example: "2026-12-01T10:30:00Z",
    }),
  })
  .openapi("CreatePublicHold");

export const PublicHoldSchema = z
  .object({
    id: z.string().openapi({ example: "hld_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    expiresAt: utcTimestamp,
    holdToken: z.string().openapi({
      description: "Books this hold (`POST …/bookings`); a secret: keep it in the page that placed the hold.",
      example: "q3ZbWm4yS6Hn0xK2Vf9tLrP8cJdE1uAoYiTgBzQwX5M",
    }),
  })
  .openapi("PublicHold");

export const CreatePublicBookingSchema = z
  .strictObject({
    holdId: z.string().min(1).max(64).openapi({ example: "hld_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    holdToken: z.string().min(1).max(64).openapi({ example: "q3ZbWm4yS6Hn0xK2Vf9tLrP8cJdE1uAoYiTgBzQwX5M" }),
    customerName,
    customerEmail,
    customerPhone: customerPhone.optional(),
    notes: z.string().max(2000).optional().openapi({ example: "First visit." }),
    answers: AnswersSchema.optional(),
  })
  .openapi("CreatePublicBooking");
