/**
 * Messages in D1: each recorded in the write-behind batch of the change that raised it (one per
 * event, keyed by the event), and a booking's messages as the API lists them.
 */
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { preparedOnce } from "../db/prepared";
import { bookings, businesses, messages } from "../db/schema";
import { loadOwned } from "../lib/rows";
import type { PageRequest } from "../lists/pagination";
import { offsetOf } from "../lists/pagination";
import type { MessageKind } from "../types/message";

/** A message's id: its event's, retagged (`evt_…` → `msg_…`), so one event has one message. */
export const messageIdSql = (eventId: unknown) => sql<string>`'msg_' || substr(${eventId}, 5)`;

/** The address an event's booking (or a reminder's, one level down) was made with. */
const recipientOf = (payload: unknown) =>
  sql`coalesce(json_extract(${payload}, '$.data.customerEmail'), json_extract(${payload}, '$.data.booking.customerEmail'))`;
/** An erased customer's address (`…@invalid`, src/calendar/service/steps/customer-rewrite.ts). */
const erased = (payload: unknown) => sql`lower(${recipientOf(payload)}) LIKE '%@invalid'`;

/**
 * D1 statements of an event's message, bound with the event's fields (`id`, `businessId`,
 * `payload`, `mail`, `createdAt`), for the calendars' write-behind batch: the message is recorded
 * if the event has a plan and the business has e-mails on (queued; failed at once for an erased
 * customer), a replay adds nothing; then how many deliveries and queued messages the event has —
 * the event needs the queue only if that is more than 0.
 */
export function messageWrites(db: Database) {
  const p = sql.placeholder;
  return preparedOnce(db, "persist.message", (db) => [
    db
      .insert(messages)
      .select(
        db
          .select({
            id: messageIdSql(p("id")).as("id"),
            businessId: businesses.id,
            bookingId:
              sql<string>`coalesce(json_extract(${p("payload")}, '$.data.id'), json_extract(${p("payload")}, '$.data.booking.id'))`.as(
                "booking_id",
              ),
            groupId: sql<string | null>`json_extract(${p("mail")}, '$.group.id')`.as("group_id"),
            eventId: sql<string>`${p("id")}`.as("event_id"),
            kind: sql<MessageKind>`json_extract(${p("mail")}, '$.kind')`.as("kind"),
            recipient: sql<string>`CASE WHEN ${erased(p("payload"))} THEN '' ELSE ${recipientOf(p("payload"))} END`.as(
              "recipient",
            ),
            subject: sql<null>`NULL`.as("subject"),
            status: sql<"queued">`CASE WHEN ${erased(p("payload"))} THEN 'failed' ELSE 'queued' END`.as("status"),
            reason: sql<null>`CASE WHEN ${erased(p("payload"))} THEN 'erased' END`.as("reason"),
            detail: sql<null>`NULL`.as("detail"),
            plan: sql<string>`${p("mail")}`.as("plan"),
            attempts: sql<number>`0`.as("attempts"),
            leaseUntil: sql<null>`NULL`.as("lease_until"),
            hour: sql<null>`NULL`.as("hour"),
            messageIdHeader: sql<null>`NULL`.as("message_id_header"),
            createdAt: sql<string>`${p("createdAt")}`.as("created_at"),
            sentAt: sql<null>`NULL`.as("sent_at"),
            updatedAt: sql<string>`${p("createdAt")}`.as("updated_at"),
          })
          .from(businesses)
          .where(
            and(
              eq(businesses.id, p("businessId")),
              sql`${p("mail")} IS NOT NULL`,
              sql`json_extract(${businesses.emails}, '$.enabled') = 1`,
            ),
          ),
      )
      .onConflictDoNothing()
      .prepare(),
    db
      .select({
        deliveries: sql<number>`(SELECT count(*) FROM webhook_deliveries WHERE event_id = ${p("id")})
          + (SELECT count(*) FROM ${messages} WHERE ${messages.eventId} = ${p("id")} AND ${messages.status} = 'queued')`,
      })
      .from(businesses)
      .where(eq(businesses.id, p("businessId")))
      .prepare(),
  ]);
}

export type MessageRow = typeof messages.$inferSelect;

/** A message as the API lists it. */
export function toMessage(row: MessageRow) {
  return {
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    status: row.status,
    reason: row.reason ?? null,
    detail: row.detail,
    groupId: row.groupId,
    attempts: row.attempts,
    messageIdHeader: row.messageIdHeader,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  };
}

/**
 * One page of the messages about the business's booking, oldest first: its own, and the
 * confirmation of the visit or series it belongs to. A booking of another business is a 404.
 */
export async function messagePage(db: Database, businessId: string, bookingId: string, page: PageRequest) {
  const booking = await loadOwned(db, bookings, "booking", businessId, bookingId);
  const group = booking.appointmentId ?? booking.seriesId ?? null;
  const where = and(
    eq(messages.businessId, businessId),
    group ? or(eq(messages.bookingId, booking.id), eq(messages.groupId, group)) : eq(messages.bookingId, booking.id),
  );
  const [rows, [counted]] = await db.batch([
    db
      .select()
      .from(messages)
      .where(where)
      .orderBy(asc(messages.createdAt), asc(messages.id))
      .limit(page.limit)
      .offset(offsetOf(page)),
    db.select({ total: sql<number>`count(*)` }).from(messages).where(where),
  ]);
  return { items: rows.map(toMessage), total: counted?.total ?? 0 };
}

/**
 * Erasure's part of the log: the customer's messages (of their bookings, their visits' and
 * series', or to their address) keep no address, and those still queued fail (`erased`), so none
 * goes out. One statement, for the erasure's D1 batch.
 */
export function eraseMessages(db: Database, businessId: string, customerId: string, email: string) {
  const theirs = sql`(SELECT id FROM bookings WHERE business_id = ${businessId} AND customer_id = ${customerId})`;
  const groups = sql`(SELECT coalesce(appointment_id, series_id) FROM bookings
    WHERE business_id = ${businessId} AND customer_id = ${customerId} AND coalesce(appointment_id, series_id) IS NOT NULL)`;
  return db
    .update(messages)
    .set({
      recipient: "",
      status: sql`CASE WHEN ${messages.status} = 'queued' THEN 'failed' ELSE ${messages.status} END`,
      reason: sql`CASE WHEN ${messages.status} = 'queued' THEN 'erased' ELSE ${messages.reason} END`,
      leaseUntil: null,
      updatedAt: new Date().toISOString(),
    })
    .where(
      and(
        eq(messages.businessId, businessId),
        or(
          sql`${messages.bookingId} IN ${theirs}`,
          sql`${messages.groupId} IN ${groups}`,
          sql`lower(${messages.recipient}) = ${email}`,
        ),
      ),
    );
}
