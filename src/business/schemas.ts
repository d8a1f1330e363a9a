/** The business as the API shows it to itself, and the body that changes it. */

import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { customerEmail, headerName, timezone } from "../schemas/fields";
import { locales } from "../types/business";

const slug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/, "Use 3–40 of a–z, 0–9 and -, not starting or ending with -.")
  .openapi({
    description: "The booking page's address: `{origin}/book/{slug}`. Unique across businesses (409 `slug_taken`).",
    example: "demo-salon",
  });

const locale = z.enum(locales).openapi({ description: "Language of the booking page and e-mails.", example: "en" });

const BookingPageSettingsSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .openapi({ description: "The page answers at `/book/{slug}` (a slug is needed).", example: true }),
    title: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: "Heading; the business's name if absent." }),
    accentColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "Use #rrggbb.")
      .optional()
      .openapi({ description: "Colour of buttons and links, `#rrggbb`.", example: "#0b6e4f" }),
  })
  .openapi("BookingPageSettings", { description: "The public booking page." });

const EmailSettingsSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .openapi({ description: "Customers get confirmations, change notices and reminders.", example: true }),
    fromName: headerName(100).optional().openapi({
      description:
        "Sender name (the From header's), one line, no line breaks or other control characters; the business's name if absent.",
    }),
    replyTo: customerEmail
      .optional()
      .openapi({ description: "Replies go here; `contactEmail` if absent.", example: "desk@example.com" }),
  })
  .openapi("EmailSettings", { description: "E-mails to customers." });

const ConflictSettingsSchema = z
  .strictObject({
    notifyCustomer: z.boolean().openapi({
      description:
        "When a booking stops fitting (a conflict), its customer gets one e-mail asking them to pick another time (with e-mails on), and its manage link may move it even inside the notice window. The business's `contactEmail` is told either way.",
      example: false,
    }),
  })
  .openapi("ConflictSettings", { description: "What a booking that stops fitting tells its customer." });

/** What a business may change of itself; nested settings are replaced whole. */
export const UpdateBusinessSchema = z
  .strictObject({
    name: headerName(200).openapi({
      description:
        "The e-mails' sender name unless `emails.fromName` is set: one line, no line breaks or other control characters.",
      example: "Demo Salon",
    }),
    slug: slug.nullable(),
    timezone,
    locale,
    contactEmail: customerEmail.nullable().openapi({ example: "hello@example.com" }),
    bookingPage: BookingPageSettingsSchema,
    emails: EmailSettingsSchema,
    conflicts: ConflictSettingsSchema,
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.")
  .openapi("UpdateBusiness", { example: { slug: "demo-salon", bookingPage: { enabled: true } } });

export const BusinessSchema = z
  .object({
    id: z.string().openapi({ example: "biz_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string(),
    slug: z.string().nullable(),
    timezone: z.string(),
    locale,
    contactEmail: z.string().nullable(),
    bookingPage: BookingPageSettingsSchema,
    emails: EmailSettingsSchema,
    conflicts: ConflictSettingsSchema,
    version: z.number().int().openapi({ description: "Moves forward on every change (the ETag's marker)." }),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("Business", { description: "The business account the API key belongs to, and its settings." });
