import { z } from "../../lib/zod";
import { listOf } from "../../lists/pagination";
import { customerEmail, headerName, timezone } from "../../schemas/fields";
import { ProviderLimitsSchema } from "../../schemas/limits";
import { DateOverridesSchema, WeeklyScheduleSchema } from "../../schemas/schedule";

/** Every writable provider field with its rules; create requires some, PATCH takes any. */
const providerFields = {
  name: headerName(200).openapi({
    description: "One line, no line breaks or other control characters.",
    example: "Alex Morgan",
  }),
  email: customerEmail.nullable().openapi({ example: "alex@example.com" }),
  timezone,
  weeklySchedule: WeeklyScheduleSchema,
  dateOverrides: DateOverridesSchema,
  active: z.boolean().openapi({ description: "An inactive provider takes no new bookings." }),
  limits: ProviderLimitsSchema,
};

export const CreateProviderSchema = z
  .strictObject({
    ...providerFields,
    email: providerFields.email.optional(),
    dateOverrides: providerFields.dateOverrides.default([]),
    active: providerFields.active.default(true),
    limits: providerFields.limits.default({}),
  })
  .openapi("CreateProvider", {
    example: {
      name: "Alex Morgan",
      email: "alex@example.com",
      timezone: "Europe/Berlin",
      weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }], tue: [{ start: "09:00", end: "17:00" }] },
      dateOverrides: [{ date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] }],
    },
  });

export const UpdateProviderSchema = z
  .strictObject(providerFields)
  .partial()
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.")
  .openapi("UpdateProvider", { example: { dateOverrides: [{ date: "2026-12-31", intervals: [] }] } });

export const ProviderSchema = z
  .object({
    id: z.string().openapi({ example: "prv_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string(),
    email: z.string().nullable(),
    timezone: z.string(),
    weeklySchedule: WeeklyScheduleSchema,
    dateOverrides: DateOverridesSchema,
    active: z.boolean(),
    limits: z.object({ perDay: z.number().int().nullable() }).openapi({
      description: "Bookings the provider may take a day (null: no limit), as `limits` of the request says.",
    }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Provider", { description: "A person (or a room, a chair) who performs services, with own hours." });

export const ProviderListSchema = listOf(ProviderSchema, "ProviderList");
