import { z } from "@hono/zod-openapi";
import { findOverlap, isValidTimeZone, minutesOfDay, timeOfDayPattern } from "../../calendar/schedule";
import type { ServiceRow, Weekday } from "../../db/schema";
import { listOf } from "../../lib/pagination";

const TimeIntervalSchema = z
  .strictObject({
    start: z.string().regex(timeOfDayPattern, "Use HH:MM, 00:00 to 23:59.").openapi({ example: "09:00" }),
    end: z.string().regex(timeOfDayPattern, "Use HH:MM, 00:01 to 24:00.").openapi({ example: "17:00" }),
  })
  .refine((iv) => !timeOfDayPattern.test(iv.start) || iv.start !== "24:00", {
    message: "An interval cannot start at 24:00.",
    path: ["start"],
  })
  .refine((iv) => !timeOfDayPattern.test(iv.end) || minutesOfDay(iv.end) > minutesOfDay(iv.start), {
    message: "The end must be after the start (intervals do not cross midnight; use 24:00).",
    path: ["end"],
  })
  .openapi("TimeInterval");

const DayIntervals = z
  .array(TimeIntervalSchema)
  .max(12)
  .superRefine((intervals, ctx) => {
    const overlapping = findOverlap(intervals);
    if (overlapping >= 0)
      ctx.addIssue({ code: "custom", message: "Intervals of a day must not overlap.", path: [overlapping] });
  });

const days: Record<Weekday, typeof DayIntervals> = {
  mon: DayIntervals,
  tue: DayIntervals,
  wed: DayIntervals,
  thu: DayIntervals,
  fri: DayIntervals,
  sat: DayIntervals,
  sun: DayIntervals,
};

export const WeeklyScheduleSchema = z
  .strictObject(days)
  .partial()
  .openapi("WeeklySchedule", {
    description: "Working intervals per weekday, local wall-clock time in the service's time zone.",
    example: { mon: [{ start: "09:00", end: "17:00" }], tue: [{ start: "09:00", end: "12:00" }] },
  });

const minutes = (max: number) => z.number().int().min(0).max(max);

/** Every writable service field with its rules; create requires some, PATCH takes any. */
const serviceFields = {
  name: z.string().trim().min(1).max(200).openapi({ example: "Haircut" }),
  description: z.string().max(2000).nullable().openapi({ example: "Wash, cut and style." }),
  durationMinutes: z.number().int().min(1).max(1440).openapi({ example: 30 }),
  capacity: z.number().int().min(1).max(1000).openapi({ description: "Seats per slot.", example: 1 }),
  slotIntervalMinutes: z
    .number()
    .int()
    .min(1)
    .max(1440)
    .openapi({ description: "Spacing of start times; defaults to durationMinutes.", example: 30 }),
  bufferBeforeMinutes: minutes(1440),
  bufferAfterMinutes: minutes(1440),
  minNoticeMinutes: minutes(525_600),
  maxAdvanceDays: z.number().int().min(1).max(730),
  timezone: z
    .string()
    .refine(isValidTimeZone, "Use an IANA time zone name such as Europe/Berlin.")
    .openapi({ example: "Europe/Berlin" }),
  weeklySchedule: WeeklyScheduleSchema,
  requiresConfirmation: z.boolean().openapi({ description: "New bookings start PENDING instead of CONFIRMED." }),
  active: z.boolean(),
};

export const CreateServiceSchema = z
  .strictObject({
    ...serviceFields,
    description: serviceFields.description.optional(),
    capacity: serviceFields.capacity.default(1),
    slotIntervalMinutes: serviceFields.slotIntervalMinutes.optional(),
    bufferBeforeMinutes: serviceFields.bufferBeforeMinutes.default(0),
    bufferAfterMinutes: serviceFields.bufferAfterMinutes.default(0),
    minNoticeMinutes: serviceFields.minNoticeMinutes.default(0),
    maxAdvanceDays: serviceFields.maxAdvanceDays.default(365),
    requiresConfirmation: serviceFields.requiresConfirmation.default(false),
    active: serviceFields.active.default(true),
  })
  .openapi("CreateService");

export const UpdateServiceSchema = z
  .strictObject(serviceFields)
  .partial()
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.")
  .openapi("UpdateService");

export const ServiceSchema = z
  .object({
    id: z.string().openapi({ example: "svc_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string(),
    description: z.string().nullable(),
    durationMinutes: z.number().int(),
    capacity: z.number().int(),
    slotIntervalMinutes: z.number().int(),
    bufferBeforeMinutes: z.number().int(),
    bufferAfterMinutes: z.number().int(),
    minNoticeMinutes: z.number().int(),
    maxAdvanceDays: z.number().int(),
    timezone: z.string(),
    weeklySchedule: WeeklyScheduleSchema,
    requiresConfirmation: z.boolean(),
    active: z.boolean(),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Service");

export const ServiceListSchema = listOf(ServiceSchema, "ServiceList");

export type Service = z.infer<typeof ServiceSchema>;

/** The public shape of a stored service. */
export function toService({ businessId: _businessId, ...service }: ServiceRow): Service {
  return service;
}
