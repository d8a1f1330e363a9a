/**
 * Helpers for the tests of messages to customers: a business with e-mails on, its messages log,
 * and what the e-mail binding was handed (test/worker.ts records it). Not a test file.
 */
import ICAL from "ical.js";
import { expect } from "vitest";
import { at, bookingBody } from "../bookings/support";
import { api, createAccount, createService, json, type TestAccount } from "../helpers";
import { eventually } from "../support/fixtures";
import { mailbox, type SentMail } from "../worker";

export type Mailing = TestAccount & { service: { id: string; name: string; timezone: string } };

/** A business with e-mails on (and `settings` on top), and one service (with `service` fields). */
export async function mailingBusiness(
  settings: Record<string, unknown> = {},
  service: Record<string, unknown> = {},
): Promise<Mailing> {
  const account = await createAccount("Salon Süd");
  const res = await api("PATCH", "/business", {
    key: account.apiKey,
    body: {
      emails: { enabled: true, replyTo: "desk@salon.example" },
      contactEmail: "hello@salon.example",
      ...settings,
    },
  });
  expect(res.status).toBe(200);
  return { ...account, service: await createService(account.apiKey, { name: "Haircut", ...service }) };
}

/** The booking's messages, as the API lists them. */
export async function messagesOf(key: string, bookingId: string) {
  const res = await api("GET", `/bookings/${bookingId}/messages?limit=100`, { key });
  expect(res.status).toBe(200);
  return (await json(res)).data as { id: string; kind: string; status: string; to: string; subject: string }[];
}

/** Waits until the booking has `count` messages and none is queued; answers them. */
export function settledMessages(key: string, bookingId: string, count: number) {
  return eventually(async () => {
    const list = await messagesOf(key, bookingId);
    return list.length === count && list.every((m) => m.status !== "queued") ? list : undefined;
  }, `${count} settled message(s) of ${bookingId}`);
}

/** What the binding was handed for `to` and took (sends that failed are left out). */
export const sentTo = (to: string): SentMail[] =>
  mailbox.sent.filter((s) => s.message.to === to && s.messageId !== undefined);

/** Every try of the message with this id (its X-Booking-Message-Id), failed ones too. */
export const triesOf = (messageId: string): SentMail[] =>
  mailbox.sent.filter((s) => s.message.headers?.["X-Booking-Message-Id"] === messageId);

/** The calendar file of a sent message, parsed by ical.js: its method and events. */
export function inviteOf(mail: SentMail) {
  const [attachment] = mail.message.attachments ?? [];
  if (!attachment) return undefined;
  const calendar = new ICAL.Component(ICAL.parse(String(attachment.content)));
  return {
    attachment,
    method: calendar.getFirstPropertyValue("method"),
    events: calendar.getAllSubcomponents("vevent").map((c) => {
      const event = new ICAL.Event(c);
      return {
        uid: event.uid,
        sequence: event.sequence,
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
        status: c.getFirstPropertyValue("status"),
        organizer: String(c.getFirstPropertyValue("organizer")),
        attendee: String(c.getFirstPropertyValue("attendee")),
      };
    }),
  };
}

/** A booking of the business's service at `day` days from now, `hhmm` UTC. */
export async function bookAt(m: Mailing, day: number, hhmm: string, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/bookings", {
    key: m.apiKey,
    body: bookingBody(m.service.id, at(day, hhmm), overrides),
  });
  expect(res.status).toBe(201);
  return json(res);
}
