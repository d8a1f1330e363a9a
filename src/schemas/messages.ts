/** Messages to customers as the API lists them, and the `email.failed` webhook's data. */

import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { failureReasons, messageKinds, messageStatuses } from "../types/message";

const kind = z.enum(messageKinds).openapi({
  description: "A new booking (one for a whole visit or series), a move, a cancellation, or a reminder.",
});

const reason = z.enum(failureReasons).openapi({
  description: "Why a `failed` message was not sent: the hour's limit, a refusal, every retry failed, …",
});

export const MessageSchema = z
  .object({
    id: z.string().openapi({ example: "msg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    kind,
    to: z.string().openapi({ description: "Empty once the customer is erased." }),
    subject: z.string().nullable(),
    status: z.enum(messageStatuses),
    reason: reason.nullable(),
    detail: z.string().nullable().openapi({ description: "The e-mail service's words." }),
    groupId: z.string().nullable().openapi({ description: "The visit or series it lists whole." }),
    attempts: z.number().int(),
    messageIdHeader: z.string().nullable().openapi({ description: "The Message-ID it went out with." }),
    createdAt: utcTimestamp,
    sentAt: utcTimestamp.nullable(),
  })
  .openapi("Message", { description: "An e-mail to the booking's customer, and what became of it." });

export const EmailFailedSchema = z
  .object({
    hourStartedAt: utcTimestamp.openapi({ description: "The clock hour (UTC): one event per hour." }),
    messageId: z.string().openapi({ example: "msg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    bookingId: z.string(),
    kind,
    reason,
    detail: z.string().nullable(),
  })
  .openapi("EmailFailed");
