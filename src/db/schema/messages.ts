/** Messages: the e-mails to customers about their bookings, one row per message, and what became of it. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import {
  type FailureReason,
  failureReasons,
  type MailPlan,
  messageKinds,
  messageStatuses,
} from "../../types/message.ts";
import { ownedRowColumns } from "./businesses.ts";

/**
 * Written with the booking change that raised it (the calendars' write-behind batch), keyed by
 * its event (`msg_` + the event id's tail), so a replay of the batch adds nothing; then claimed,
 * sent and settled by the queue consumer (src/messages/send.ts).
 */
export const messages = sqliteTable(
  "messages",
  {
    ...ownedRowColumns(),
    /** The booking it is about; for a visit's or a series' confirmation, its first booking. */
    bookingId: text("booking_id").notNull(),
    /** The visit (`apt_…`) or series (`ser_…`) a confirmation lists whole; null otherwise. */
    groupId: text("group_id"),
    /** The booking event it came with (its payload holds the booking as of that change). */
    eventId: text("event_id").notNull(),
    kind: text("kind", { enum: messageKinds }).notNull(),
    /** The customer's address; blanked when the customer is erased. */
    recipient: text("recipient").notNull(),
    /** Set once the message is built (its first attempt). */
    subject: text("subject"),
    status: text("status", { enum: messageStatuses }).notNull(),
    reason: text("reason", { enum: failureReasons }).$type<FailureReason>(),
    /** The e-mail service's own words, for `refused` and `gave_up`. */
    detail: text("detail"),
    /** JSON: what the calendar decided to mail (src/types/message.ts `MailPlan`); no personal data. */
    plan: text("plan", { mode: "json" }).notNull().$type<MailPlan>(),
    attempts: integer("attempts").notNull().default(0),
    /** A consumer sending it holds it until then; another finds it taken and retries later. */
    leaseUntil: text("lease_until"),
    /** The clock hour (UTC, `2026-12-01T10`) it was counted against, at its first attempt. */
    hour: text("hour"),
    /** The Message-ID header the e-mail service gave it. */
    messageIdHeader: text("message_id_header"),
    createdAt: text("created_at").notNull(),
    sentAt: text("sent_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("messages_business_booking_idx").on(t.businessId, t.bookingId, t.createdAt),
    index("messages_business_group_idx").on(t.businessId, t.groupId),
    index("messages_event_idx").on(t.eventId),
    index("messages_business_hour_idx").on(t.businessId, t.hour),
  ],
);
