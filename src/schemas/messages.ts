/** Messages to customers as the API lists them, and the `email.failed` webhook's data. */
import { failureReasons, messageKinds, messageStatuses } from "../domain/message";
import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";

const kind = z.enum(messageKinds).openapi({
  description:
    "`confirmation` (a new booking; one for a whole visit or series; also when a PENDING booking is confirmed), `rescheduled`, `cancelled`, or `reminder` (one of its service's `reminders`).",
});

const reason = z.enum(failureReasons).openapi({
  description:
    "Why a `failed` message was not sent: `hourly_limit` (the business's messages of this hour were used up), `refused` (the e-mail service refused it; `detail` says why), `gave_up` (every retry failed), `erased` (the customer was erased), `disabled` (e-mails were turned off before it went out), `no_sender` (the deployment has no sender address).",
});

export const MessageSchema = z
  .object({
    id: z.string().openapi({ example: "msg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    kind,
    to: z.string().openapi({ description: "The customer's address; empty once the customer is erased." }),
    subject: z.string().nullable().openapi({ description: "Null until the message is first built." }),
    status: z.enum(messageStatuses).openapi({
      description: "`queued` (waiting, or waiting for a retry), `sent` (the e-mail service took it), or `failed`.",
    }),
    reason: reason.nullable(),
    detail: z.string().nullable().openapi({ description: "The e-mail service's words about the last failed try." }),
    groupId: z
      .string()
      .nullable()
      .openapi({ description: "The visit (`apt_…`) or series (`ser_…`) a confirmation lists whole." }),
    attempts: z.number().int().openapi({ description: "How many times it was tried." }),
    messageIdHeader: z.string().nullable().openapi({
      description: "The Message-ID header the e-mail service gave the message that went out.",
    }),
    createdAt: utcTimestamp,
    sentAt: utcTimestamp.nullable(),
  })
  .openapi("Message", { description: "An e-mail to the booking's customer, and what became of it." });

export const EmailFailedSchema = z
  .object({
    hourStartedAt: utcTimestamp.openapi({ description: "The clock hour (UTC) of the failure: one event per hour." }),
    messageId: z.string().openapi({ example: "msg_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    bookingId: z.string(),
    kind,
    reason,
    detail: z.string().nullable(),
  })
  .openapi("EmailFailed");
