/**
 * Helpers for the tests of messages to customers: a business with e-mails on, its messages log,
 * and what the e-mail binding was handed (test/support/worker.ts records it). Not a test file.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import ICAL from "ical.js";
import { expect } from "vitest";
import type { DeliveryMessage } from "../../src/audit/events";
import { payloadWithLink } from "../../src/manage-links/present";
import { deadLetterWebhooks, deliverWebhooks } from "../../src/webhooks/deliver";
import { api, createAccount, createService, json, type TestAccount } from "./api";
import { at, bookingBody } from "./bookings";
import { eventually } from "./eventually";
import { mailbox, recordingMailer, type SentMail } from "./worker";

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

/** A message as `GET /bookings/{id}/messages` lists it. */
export type Message = {
  id: string;
  kind: string;
  to: string;
  subject: string | null;
  status: string;
  reason: string | null;
  detail: string | null;
  groupId: string | null;
  attempts: number;
  messageIdHeader: string | null;
  createdAt: string;
  sentAt: string | null;
};

/** The booking's messages, as the API lists them. */
export async function messagesOf(key: string, bookingId: string) {
  const res = await api("GET", `/bookings/${bookingId}/messages?limit=100`, { key });
  expect(res.status).toBe(200);
  return (await json(res)).data as Message[];
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

/**
 * What the `send_email` binding captured of a message it took, read from disk by the Node side
 * (vitest.config.ts `EMAIL_FILES`): "email-text/.txt", "email-html/.html", "email-attachment/-1.ics".
 */
export async function captured(
  messageIdHeader: string,
  expected = ["email-text/.txt", "email-html/.html"],
): Promise<Record<string, string>> {
  const files = (env as unknown as { EMAIL_FILES: Fetcher }).EMAIL_FILES;
  const id = encodeURIComponent(messageIdHeader.replace(/^<|>$/g, ""));
  // The binding writes its files after it answers: wait for them.
  return eventually(
    async () => {
      const found = (await (await files.fetch(`http://files/?id=${id}`)).json()) as Record<string, string>;
      return expected.every((file) => found[file]) ? found : undefined;
    },
    `the captured files of ${messageIdHeader}`,
    10_000,
    100,
  );
}

/** The event a message came with (its id is the event's, retagged). */
export const eventOf = (messageId: string) => `evt_${messageId.slice(4)}`;

let redeliveries = 0;

/**
 * Hands the event to the queue's consumer again, as the queue does on a retry or a duplicate
 * delivery (its `attempts`-th); answers whether the consumer asked for another retry.
 */
export async function redeliver(eventId: string, attempts = 2): Promise<boolean> {
  const batch = createMessageBatch<DeliveryMessage>("booking-webhooks", [
    { id: `redelivery-${++redeliveries}`, timestamp: new Date(), attempts, body: { eventId } },
  ]);
  await deliverWebhooks(batch, env, payloadWithLink, recordingMailer(env));
  const result = await getQueueResult(batch, createExecutionContext());
  return result.retryMessages.length > 0;
}

/** The dead-letter queue's consumer gets the event: the queue gave up on it. */
export async function deadLetter(eventId: string): Promise<void> {
  const batch = createMessageBatch<DeliveryMessage>("booking-webhooks-dlq", [
    { id: `dead-${++redeliveries}`, timestamp: new Date(), attempts: 1, body: { eventId } },
  ]);
  await deadLetterWebhooks(batch, env);
}

/** The successful sends among `tries`. */
export const delivered = (tries: SentMail[]) => tries.filter((t) => t.messageId !== undefined);
