/** The resource (a room, a chair, a machine) as the API shows it, and the bodies that create and change one. */
import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { listOf } from "../lists/pagination";
import { timezone } from "./fields";
import { DateOverridesSchema, WeeklyScheduleSchema } from "./schedule";

/** A resource's own hours, or null: a union, so the document says "the schedule or null" (not a nullable reference). */
const OwnHoursSchema = z.union([WeeklyScheduleSchema, z.literal(null)]);

/** Every writable resource field with its rules; create requires some, PATCH takes any. */
const resourceFields = {
  name: z.string().trim().min(1).max(200).openapi({ example: "Treatment room" }),
  quantity: z.number().int().min(1).max(1000).openapi({
    description:
      "Identical units (1–1000): how many bookings can take it at once. Lowering it below what upcoming bookings need is a 409 `bookings_conflict`.",
    example: 1,
  }),
  timezone,
  weeklySchedule: OwnHoursSchema.openapi({
    description:
      "Own opening hours in `timezone`; null (or absent): open whenever a service using it is. Either way, on a date of `dateOverrides` it is open only in that override's intervals (`[]`: closed).",
  }),
  dateOverrides: DateOverridesSchema,
  active: z.boolean().openapi({
    description:
      "An inactive resource takes no new bookings; setting it inactive while upcoming bookings hold a unit is a 409 `bookings_conflict`.",
  }),
};

export const CreateResourceSchema = z
  .strictObject({
    ...resourceFields,
    quantity: resourceFields.quantity.default(1),
    weeklySchedule: resourceFields.weeklySchedule.optional(),
    dateOverrides: resourceFields.dateOverrides.default([]),
    active: resourceFields.active.default(true),
  })
  .openapi("CreateResource", {
    example: {
      name: "Treatment room",
      quantity: 1,
      timezone: "Europe/Berlin",
      dateOverrides: [{ date: "2026-12-24", intervals: [] }],
    },
  });

export const UpdateResourceSchema = z
  .strictObject(resourceFields)
  .partial()
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.")
  .openapi("UpdateResource", { example: { quantity: 2 } });

export const ResourceSchema = z
  .object({
    id: z.string().openapi({ example: "res_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string(),
    quantity: z.number().int(),
    timezone: z.string(),
    weeklySchedule: OwnHoursSchema,
    dateOverrides: DateOverridesSchema,
    active: z.boolean(),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("Resource", {
    description:
      "A room, chair or machine with `quantity` identical units; every booking of a service that lists it in `resourceIds` takes one unit.",
  });

export const ResourceListSchema = listOf(ResourceSchema, "ResourceList");
