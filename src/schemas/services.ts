/** The service as the API shows it, and the bodies that create and change one. */
import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { listOf } from "../lists/pagination";
import { headerName, timezone } from "./fields";
import { AssignmentSchema, MaxActivePerCustomerSchema, ServiceLimitsSchema } from "./limits";
import { QuestionsSchema } from "./questions";
import { DateOverridesSchema, WeeklyScheduleSchema } from "./schedule";

/** A list of up to `max` unique ids (each named at its index when listed twice). */
const uniqueIds = (max: number) =>
  z
    .array(z.string().min(1).max(64))
    .max(max)
    .superRefine((ids, ctx) => {
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", message: `${id} is listed twice.`, path: [i] });
      });
    });

/** Who performs a service: unique provider ids of the business; empty = no provider needed. */
const ProviderIdsSchema = uniqueIds(50).openapi({
  description:
    "Providers who perform this service (at most 50, ids of `GET /providers`); empty means no provider is needed.",
  example: [],
});

/** What every booking of a service takes a unit of: unique resource ids of the business. */
const ResourceIdsSchema = uniqueIds(5).openapi({
  description:
    "Resources (rooms, chairs, machines; at most 5, ids of `GET /resources`) every booking takes one unit of for its blocked span, buffers included; the seats of one group session share the unit. Empty: none needed.",
  example: [],
});

/** How a service with providers is staffed. */
const ProviderModeSchema = z.enum(["one", "all"]).openapi({
  description:
    "`one` (default): one of the `providerIds` performs each booking. `all`: a team — every listed provider must be free and each one's time is claimed; the booking's `providerId` is null and `providerIds` lists them all.",
  example: "one",
});

const minutes = (max: number) => z.number().int().min(0).max(max);

/** When reminders go out: up to 5 offsets before the start, 5 minutes to 30 days, each once. */
const RemindersSchema = z
  .array(z.strictObject({ offsetMinutes: z.number().int().min(5).max(43_200) }))
  .max(5)
  .superRefine((reminders, ctx) => {
    const offsets = reminders.map((r) => r.offsetMinutes);
    offsets.forEach((offset, i) => {
      if (offsets.indexOf(offset) !== i)
        ctx.addIssue({ code: "custom", path: [i, "offsetMinutes"], message: `${offset} is listed twice.` });
    });
  })
  .openapi({
    description:
      "A `booking.reminder` webhook event goes out this many minutes before each booking's start (at most 5; 5–43,200 minutes each), for bookings not cancelled; a moved booking's reminders move with it, and one already past when a booking is made or moved is skipped. A change applies to upcoming bookings at once.",
    example: [{ offsetMinutes: 1440 }],
  });

/** Every writable service field with its rules; create requires some, PATCH takes any. */
const serviceFields = {
  name: headerName(200).openapi({
    description: "In e-mails' subjects: one line, no line breaks or other control characters.",
    example: "Haircut",
  }),
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
  cancellationNoticeMinutes: minutes(525_600).openapi({
    description:
      "A customer's manage link cannot cancel, nor move, a booking less than this many minutes before its start (409 `policy_window`); calls with an API key are not bound. Default 0: until the start.",
    example: 1440,
  }),
  rescheduleNoticeMinutes: minutes(525_600).openapi({
    description:
      "A customer's manage link cannot move a booking less than this many minutes before its start (409 `policy_window`), nor less than `cancellationNoticeMinutes` before it (a move frees the time as a cancel does); calls with an API key are not bound. Default 0: until the start.",
    example: 1440,
  }),
  timezone,
  weeklySchedule: WeeklyScheduleSchema,
  dateOverrides: DateOverridesSchema,
  providerIds: ProviderIdsSchema,
  providerMode: ProviderModeSchema,
  resourceIds: ResourceIdsSchema,
  questions: QuestionsSchema,
  reminders: RemindersSchema,
  requiresConfirmation: z.boolean().openapi({ description: "New bookings start PENDING instead of CONFIRMED." }),
  bookableOnline: z
    .boolean()
    .openapi({ description: "Offered on the business's booking page and its public JSON (while active)." }),
  active: z.boolean(),
  limits: ServiceLimitsSchema,
  maxActivePerCustomer: MaxActivePerCustomerSchema,
  assignment: AssignmentSchema,
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
    cancellationNoticeMinutes: serviceFields.cancellationNoticeMinutes.default(0),
    rescheduleNoticeMinutes: serviceFields.rescheduleNoticeMinutes.default(0),
    dateOverrides: serviceFields.dateOverrides.default([]),
    providerIds: serviceFields.providerIds.default([]),
    providerMode: serviceFields.providerMode.default("one"),
    resourceIds: serviceFields.resourceIds.default([]),
    questions: serviceFields.questions.default([]),
    reminders: serviceFields.reminders.default([]),
    requiresConfirmation: serviceFields.requiresConfirmation.default(false),
    bookableOnline: serviceFields.bookableOnline.default(false),
    active: serviceFields.active.default(true),
    limits: serviceFields.limits.default({}),
    maxActivePerCustomer: serviceFields.maxActivePerCustomer.default(null),
    assignment: serviceFields.assignment.default("first"),
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
    cancellationNoticeMinutes: z.number().int(),
    rescheduleNoticeMinutes: z.number().int(),
    timezone: z.string(),
    weeklySchedule: WeeklyScheduleSchema,
    dateOverrides: DateOverridesSchema,
    providerIds: z.array(z.string()).openapi({ description: "Providers who perform it, sorted; empty = none needed." }),
    providerMode: z
      .enum(["one", "all"])
      .openapi({ description: "`one` provider per booking, or `all` of them (a team)." }),
    resourceIds: z
      .array(z.string())
      .openapi({ description: "Resources every booking takes a unit of, sorted; empty = none needed." }),
    questions: QuestionsSchema,
    reminders: RemindersSchema,
    requiresConfirmation: z.boolean(),
    bookableOnline: z.boolean(),
    active: z.boolean(),
    limits: z.object({ perDay: z.number().int().nullable(), perWeek: z.number().int().nullable() }).openapi({
      description:
        "Bookings of the service a day and a week may hold (null: no limit), as `limits` of the request says.",
    }),
    maxActivePerCustomer: z.number().int().nullable(),
    assignment: z.enum(["first", "balanced"]),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
  })
  .openapi("Service");

export const ServiceListSchema = listOf(ServiceSchema, "ServiceList");
