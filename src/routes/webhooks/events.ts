import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { utcTimestamp } from "../../lib/datetime";
import { z } from "../../lib/zod";
import { BookingConflictEventSchema, BookingSchema } from "../../schemas/bookings";
import { CalendarSyncFailedSchema } from "../../schemas/connected-calendars";
import { EmailFailedSchema } from "../../schemas/messages";
import { WaitlistEntrySchema } from "../../schemas/waitlist";
import { type WebhookEventType, webhookEventTypes } from "../../types/webhook";

const EventBookingSchema = BookingSchema.extend({
  version: z.number().int().min(1).openapi({
    description: "Moves on with every change: a receiver keeps the highest it has seen and drops older events.",
  }),
}).openapi("EventBooking");

const RescheduledBookingSchema = EventBookingSchema.extend({
  previousStartTime: utcTimestamp,
  previousEndTime: utcTimestamp,
  previousProviderId: z.string().nullable(),
}).openapi("RescheduledBooking");

const ReminderSchema = z
  .object({
    offsetMinutes: z
      .number()
      .int()
      .openapi({ description: "Which of the service's `reminders` this is.", example: 1440 }),
    booking: EventBookingSchema,
  })
  .openapi("BookingReminder");

/** What each event means, and its booking. */
const events: Record<WebhookEventType, { summary: string; data: z.ZodType }> = {
  "booking.created": { summary: "A booking was made (any way: API, hold, import, agent).", data: EventBookingSchema },
  "booking.cancelled": { summary: "A booking was cancelled.", data: EventBookingSchema },
  "booking.updated": {
    summary: "A booking changed: status, notes, or its customer's details (an edit or an erasure).",
    data: EventBookingSchema,
  },
  "booking.rescheduled": {
    summary: "A booking moved to another time (or person); `data` also says where it was.",
    data: RescheduledBookingSchema,
  },
  "booking.reminder": {
    summary:
      "A booking starts in `offsetMinutes` (one of its service's `reminders`): sent at its start minus the offset, by the calendar's alarm, for bookings not cancelled; `data.booking` is the booking then.",
    data: ReminderSchema,
  },
  "booking.conflict": {
    summary:
      "A booking stopped fitting (docs/staff-calendars.md, Conflicts): the person's own calendar shows them busy over it, or their hours, days off or the room's hours no longer cover it. Sent once per new conflict, not per sync; the booking's `conflicts` lists it until it clears.",
    data: BookingConflictEventSchema,
  },
  "booking.conflict_resolved": {
    summary:
      "A conflict cleared: its cause went away (the event was deleted, the hours restored), or the booking moved or was cancelled (`data.reason`). Sent once per cleared conflict.",
    data: BookingConflictEventSchema,
  },
  "waitlist.offered": {
    summary:
      "A seat of a waitlisted slot freed and the entry first in line was offered a hold (`data.holdId`, kept 15 minutes): `data` is the entry, now OFFERED.",
    data: WaitlistEntrySchema,
  },
  "calendar.sync_failed": {
    summary:
      "A person's own calendar could not be read (`data.error` says why): sent once when an outage begins, not per retry; its last busy times still count. Another is sent only after a read succeeded and a later one failed again.",
    data: CalendarSyncFailedSchema,
  },
  "email.failed": {
    summary:
      "An e-mail to a customer failed (the hour's limit was reached, the e-mail service refused it, or every retry failed): sent for the first failure of each clock hour only; `data` names that message. Every message's fate is in `GET /bookings/{id}/messages`.",
    data: EmailFailedSchema,
  },
};

/** The Standard Webhooks headers every delivery carries. */
const signatureHeaders = z.object({
  "webhook-id": z.string().openapi({
    description: "The event's id: the same on every retry, so a receiver can drop a repeat.",
    example: "evt_01jd3k5v7q8r9s0t1u2v3w4x5y",
  }),
  "webhook-timestamp": z.string().openapi({ description: "Seconds since the epoch when this attempt was signed." }),
  "webhook-signature": z.string().openapi({
    description:
      "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the endpoint's `whsec_` secret.",
  }),
});

/**
 * The `webhooks` section of the document: the requests this API sends to a business's endpoints,
 * one per event type (OpenAPI 3.1). Documentation only: nothing is routed here.
 */
export const documentWebhookEvents = (api: OpenAPIHono<AppEnv>) => {
  for (const type of webhookEventTypes) {
    const { summary, data } = events[type];
    api.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${type.replace(".", "_")}_event`,
      tags: ["Webhooks"],
      summary,
      // The receiver checks `webhook-signature`; it has no API key of ours to ask for.
      security: [],
      description:
        "Sent to every active endpoint subscribed to the event, signed per Standard Webhooks; retried after 10 s, 1 min, 5 min, 30 min, 2 h and 6 h until a 2xx answers.",
      request: {
        headers: signatureHeaders,
        body: {
          required: true,
          content: {
            "application/json": {
              schema: z.object({ type: z.literal(type), timestamp: utcTimestamp, data }),
            },
          },
        },
      },
      responses: {
        "2XX": { description: "Received: the delivery is done." },
        default: { description: "Anything else, or no answer within 10 s: the delivery is tried again." },
      },
    });
  }
};
