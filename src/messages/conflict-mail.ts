/**
 * A new conflict's e-mails made ready to send (src/messages/conflict-records.ts records them):
 * the customer's asks them to choose another time, with their manage link; the business's names
 * the booking, what no longer holds and the customer to reach. Both read the booking as it is
 * when sent: one cancelled or already past by then is not mailed.
 */

import type { BookingStatus } from "../types/booking";
import type { EmailSettings, Locale } from "../types/business";
import { type Composed, failed, manageUrlOf, written } from "./composed";
import type { Leased } from "./lease";
import type { Letter } from "./render/letter";
import { oneLine } from "./render/letter";

type Row = {
  name: string;
  locale: Locale;
  contact_email: string | null;
  emails: string;
  link_key_version: number;
  id: string | null;
  status: BookingStatus | null;
  start_time: string;
  end_time: string;
  version: number;
  updated_at: string;
  customer_name: string;
  customer_email: string;
  service_name: string;
  timezone: string;
  payload: string | null;
};

/** The business, the booking with its service, and the event, in one statement. */
const load = (d1: D1Database, row: Leased) =>
  d1
    .prepare(
      `SELECT b.name, b.locale, b.contact_email, b.emails, b.link_key_version, k.id, k.status, k.start_time,
         k.end_time, k.version, k.updated_at, k.customer_name, k.customer_email, s.name AS service_name, s.timezone,
         (SELECT payload FROM webhook_events WHERE id = ?3) AS payload
       FROM businesses b LEFT JOIN bookings k ON k.business_id = b.id AND k.id = ?2
         LEFT JOIN services s ON s.id = k.service_id
       WHERE b.id = ?1`,
    )
    .bind(row.businessId, row.bookingId, row.eventId)
    .first<Row>();

/** Builds a conflict's e-mail to the customer (`conflict`) or to the business (`conflict_alert`). */
export async function composeConflict(env: Env, row: Leased, sender: string): Promise<Composed> {
  const found = await load(env.DB, row);
  if (!found?.id || !found.payload) return failed("gave_up", "Its booking or event is no longer kept.");
  const live = (found.status === "CONFIRMED" || found.status === "PENDING") && Date.parse(found.end_time) > Date.now();
  if (!live) return failed("gave_up", "The booking was cancelled or is over; nothing to ask.");
  const settings = JSON.parse(found.emails) as EmailSettings;
  const toCustomer = row.kind === "conflict";
  if (toCustomer && !settings.enabled) return failed("disabled");
  const to = row.recipient;
  if (!to || to.toLowerCase().endsWith("@invalid") || found.customer_email.toLowerCase().endsWith("@invalid")) {
    return failed("erased");
  }
  const owner = { businessId: row.businessId, linkKeyVersion: found.link_key_version };
  const booking = {
    id: found.id,
    status: found.status as BookingStatus,
    customerEmail: found.customer_email,
    endTime: found.end_time,
  };
  const contact = settings.replyTo ?? found.contact_email ?? null;
  const senderName = oneLine(settings.fromName ?? found.name);
  const detail = (JSON.parse(found.payload) as { data?: { conflict?: { detail?: string } } }).data?.conflict?.detail;
  const letter: Letter = {
    kind: row.kind,
    locale: found.locale,
    business: found.name,
    customerName: found.customer_name,
    customerEmail: found.customer_email,
    contact,
    organizer: { name: senderName, email: contact ?? sender },
    items: [
      {
        id: found.id,
        serviceName: found.service_name,
        startTime: found.start_time,
        endTime: found.end_time,
        timezone: found.timezone,
        pending: found.status === "PENDING",
        version: found.version,
        updatedAt: found.updated_at,
        manageUrl: toCustomer ? await manageUrlOf(env, owner, booking) : null,
      },
    ],
    series: false,
    // What no longer holds is the business's to know; the customer is only asked to move.
    reason: toCustomer ? null : (detail ?? null),
  };
  return written(letter, {
    from: { email: sender, name: senderName },
    to,
    replyTo: toCustomer ? contact : null,
    messageId: row.id,
  });
}
