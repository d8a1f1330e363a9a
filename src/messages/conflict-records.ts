/**
 * The e-mails of a new conflict (docs/staff-calendars.md, "Conflicts"), recorded when its
 * `booking.conflict` event reaches D1 and keyed by that event, so a replay after a reset adds
 * nothing: one to the business's `contactEmail` whenever it is set (e-mails to customers on or
 * off), and one asking the customer to pick another time when the business has
 * `conflicts.notifyCustomer` and e-mails on (not for an erased customer or a booking no longer
 * active). Answers how many of the event's messages are queued.
 */
import type { BookingEvent } from "../audit/events";

/** The columns every message row is written with, in the order the selects below give them. */
const columns = `id, business_id, booking_id, group_id, event_id, kind, recipient, subject, status, reason, detail,
  plan, attempts, lease_until, hour, message_id_header, created_at, sent_at, updated_at`;

/** The business's notice: ids end `_business`, the customer's has the event's own tail. */
const toBusiness = `INSERT INTO messages (${columns})
  SELECT 'msg_' || substr(?1, 5) || '_business', b.id, json_extract(?3, '$.data.bookingId'), NULL, ?1,
    'conflict_alert', b.contact_email, NULL, 'queued', NULL, NULL, '{"kind":"conflict_alert"}', 0, NULL, NULL, NULL,
    ?4, NULL, ?4
  FROM businesses b WHERE b.id = ?2 AND b.contact_email IS NOT NULL
  ON CONFLICT DO NOTHING`;

const toCustomer = `INSERT INTO messages (${columns})
  SELECT 'msg_' || substr(?1, 5), b.id, k.id, NULL, ?1, 'conflict', k.customer_email, NULL, 'queued', NULL, NULL,
    '{"kind":"conflict"}', 0, NULL, NULL, NULL, ?4, NULL, ?4
  FROM businesses b JOIN bookings k ON k.business_id = b.id AND k.id = json_extract(?3, '$.data.bookingId')
  WHERE b.id = ?2 AND json_extract(b.conflicts, '$.notifyCustomer') = 1 AND json_extract(b.emails, '$.enabled') = 1
    AND k.status IN ('CONFIRMED', 'PENDING') AND lower(k.customer_email) NOT LIKE '%@invalid'
  ON CONFLICT DO NOTHING`;

/** Records a `booking.conflict` event's e-mails in one D1 batch; answers how many are queued. */
export async function recordConflictMessages(d1: D1Database, event: BookingEvent): Promise<number> {
  const values = [event.id, event.businessId, event.payload, event.createdAt];
  const results = await d1.batch([
    d1.prepare(toBusiness).bind(...values),
    d1.prepare(toCustomer).bind(...values),
    d1.prepare("SELECT count(*) AS queued FROM messages WHERE event_id = ? AND status = 'queued'").bind(event.id),
  ]);
  return (results[2]?.results[0] as { queued: number } | undefined)?.queued ?? 0;
}
