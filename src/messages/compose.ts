/**
 * A leased message made ready to send: its event's booking (as of the change), the business's
 * settings, the services' names and zones, the manage links — read in one D1 batch — written
 * out as text, HTML and a calendar invite. The same message always reads the same: a retry sends
 * what the first attempt sent (the links and names as they are then).
 */
import type { EmailSettings, Locale } from "../types/business";
import { type Composed, failed, manageUrlOf, written } from "./composed";
import { composeConflict } from "./conflict-mail";
import type { Leased } from "./lease";
import { renderInvite } from "./render/invite";
import type { Letter, LetterItem } from "./render/letter";
import { oneLine } from "./render/letter";

/** A booking as an event's payload carries it (the fields a message reads). */
type EventBooking = {
  id: string;
  serviceId: string;
  customerName: string;
  customerEmail: string;
  startTime: string;
  endTime: string;
  status: "PENDING" | "CONFIRMED" | "CANCELLED" | "COMPLETED" | "NO_SHOW";
  version: number;
  createdAt: string;
  updatedAt: string;
  cancellationReason: string | null;
  previousStartTime?: string;
  previousEndTime?: string;
};

type Business = {
  name: string;
  locale: Locale;
  contact_email: string | null;
  emails: string;
  link_key_version: number;
};
type Service = { id: string; name: string; timezone: string };

/** What the message needs of D1, in one batch. */
async function load(d1: D1Database, row: Leased) {
  const [events, business, services, thread] = await d1.batch([
    d1.prepare("SELECT payload FROM webhook_events WHERE id = ?").bind(row.eventId),
    d1
      .prepare("SELECT name, locale, contact_email, emails, link_key_version FROM businesses WHERE id = ?")
      .bind(row.businessId),
    d1
      .prepare(
        `SELECT id, name, timezone FROM services WHERE business_id = ?1 AND id IN (
           SELECT coalesce(json_extract(payload, '$.data.serviceId'), json_extract(payload, '$.data.booking.serviceId'))
             FROM webhook_events WHERE id = ?2
           UNION SELECT json_extract(value, '$.serviceId') FROM json_each(?3))`,
      )
      .bind(row.businessId, row.eventId, JSON.stringify(row.plan.group?.bookings ?? [])),
    // The booking's confirmation, for threading: later messages answer it.
    d1
      .prepare(
        `SELECT message_id_header FROM messages WHERE business_id = ?1 AND (booking_id = ?2 OR group_id = ?3)
           AND kind = 'confirmation' AND status = 'sent' AND id != ?4 ORDER BY created_at LIMIT 1`,
      )
      .bind(row.businessId, row.bookingId, row.groupId ?? "", row.id),
  ]);
  const payload = (events?.results[0] as { payload: string } | undefined)?.payload;
  const data = payload ? (JSON.parse(payload) as { data: EventBooking & { booking?: EventBooking } }).data : undefined;
  return {
    booking: data?.booking ?? data,
    business: business?.results[0] as Business | undefined,
    services: new Map(((services?.results ?? []) as Service[]).map((s) => [s.id, s])),
    thread: (thread?.results[0] as { message_id_header: string | null } | undefined)?.message_id_header ?? null,
  };
}

/** Builds the message `row` names; a message that must not go out answers why. */
export async function compose(env: Env, row: Leased): Promise<Composed> {
  const sender: string = env.EMAIL_FROM;
  if (!sender) return failed("no_sender", "EMAIL_FROM is not set.");
  if (row.kind === "conflict" || row.kind === "conflict_alert") return composeConflict(env, row, sender);
  const { booking, business, services, thread } = await load(env.DB, row);
  if (!booking || !business) return failed("gave_up", "Its event is no longer kept.");
  const settings = JSON.parse(business.emails) as EmailSettings;
  if (!settings.enabled) return failed("disabled");
  const to = row.recipient;
  if (!to || to.toLowerCase().endsWith("@invalid") || booking.customerEmail.toLowerCase().endsWith("@invalid")) {
    return failed("erased");
  }
  const owner = { businessId: row.businessId, linkKeyVersion: business.link_key_version };
  const planned = row.plan.group?.bookings.map((b) => ({ ...booking, ...b, updatedAt: booking.createdAt })) ?? [
    booking,
  ];
  const items: LetterItem[] = await Promise.all(
    planned.map(async (b) => {
      const service = services.get(b.serviceId);
      return {
        id: b.id,
        serviceName: service?.name ?? "",
        startTime: b.startTime,
        endTime: b.endTime,
        timezone: service?.timezone ?? "UTC",
        pending: b.status === "PENDING",
        version: b.version,
        updatedAt: b.updatedAt,
        manageUrl: await manageUrlOf(env, owner, { ...b, customerEmail: booking.customerEmail }),
        ...(row.kind === "rescheduled" && booking.previousStartTime && booking.previousEndTime
          ? { previous: { startTime: booking.previousStartTime, endTime: booking.previousEndTime } }
          : {}),
      };
    }),
  );
  const contact = settings.replyTo ?? business.contact_email ?? null;
  // The From header's name: one line even from a row stored before the API refused line breaks.
  const senderName = oneLine(settings.fromName ?? business.name);
  const letter: Letter = {
    kind: row.kind,
    locale: business.locale,
    business: business.name,
    customerName: booking.customerName,
    customerEmail: to,
    contact,
    organizer: { name: senderName, email: contact ?? sender },
    items,
    series: row.groupId?.startsWith("ser_") ?? false,
    reason: row.kind === "cancelled" ? booking.cancellationReason : null,
  };
  const invite = renderInvite(letter);
  return written(
    letter,
    { from: { email: sender, name: senderName }, to, replyTo: contact, messageId: row.id },
    {
      ...(thread ? { headers: { "In-Reply-To": thread, References: thread } } : {}),
      ...(invite ? { attachments: [{ disposition: "attachment" as const, ...invite }] } : {}),
    },
  );
}
