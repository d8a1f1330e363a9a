/**
 * A message's content before it is written out: what it is about, in whose words, and its times
 * in the zone of each booking's service. The text, HTML and invite renderers read only
 * this, and the text and HTML parts say the same `contentOf` it.
 */
import type { Locale } from "../../types/business";
import type { MessageKind } from "../../types/message";
import { type Words, wordsOf } from "./words";

/** One booking the message names. */
export type LetterItem = {
  id: string;
  serviceName: string;
  startTime: string;
  endTime: string;
  /** The service's IANA time zone: the times are shown in it, and named. */
  timezone: string;
  /** PENDING reads as a request (the invite TENTATIVE). */
  pending: boolean;
  /** The booking's version: the invite's SEQUENCE, higher with every change. */
  version: number;
  updatedAt: string;
  /** The customer's manage link, or null (links off, or the booking cancelled). */
  manageUrl: string | null;
  /** Where a moved booking was. */
  previous?: { startTime: string; endTime: string };
};

export type Letter = {
  kind: MessageKind;
  locale: Locale;
  /** The business's name, as the customer knows it. */
  business: string;
  /** The customer's name; null for none to show. */
  customerName: string | null;
  customerEmail: string;
  /** Where the customer can write (the reply address, else the business's contact), or null. */
  contact: string | null;
  /** The organizer of the invite: the sender's name and the reply address (else the sender). */
  organizer: { name: string; email: string };
  items: LetterItem[];
  /** A series: its bookings are one service at several times. */
  series: boolean;
  /** A cancellation's reason, as given; what no longer holds, in the business's notice of a conflict. */
  reason?: string | null;
};

/** The language tag Intl formats a locale with. */
const tagOf = (locale: Locale) => (locale === "de" ? "de-DE" : "en-US");

/** "Tuesday, December 1, 2026, 10:00 AM – 10:30 AM (Europe/Berlin)", in the item's zone. */
function whenOf(locale: Locale, span: { startTime: string; endTime: string }, timezone: string): string {
  const tag = tagOf(locale);
  const day = new Intl.DateTimeFormat(tag, { dateStyle: "full", timeZone: timezone });
  const time = new Intl.DateTimeFormat(tag, { timeStyle: "short", timeZone: timezone });
  const start = new Date(span.startTime);
  const end = new Date(span.endTime);
  const sameDay = day.format(start) === day.format(end);
  const until = sameDay ? time.format(end) : `${day.format(end)}, ${time.format(end)}`;
  return `${day.format(start)}, ${time.format(start)} – ${until} (${timezone})`;
}

/** The short time of a subject line: "Dec 1, 2026, 10:00 AM". */
function shortWhen(locale: Locale, startTime: string, timezone: string): string {
  const format = new Intl.DateTimeFormat(tagOf(locale), {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: timezone,
  });
  return format.format(new Date(startTime));
}

/** The letter's words. */
const wordsFor = (letter: Letter): Words => wordsOf(letter.locale);

/** What the letter is about, in a few words: a service, a visit's services, or a series. */
function topicOf(letter: Letter): string {
  const names = [...new Set(letter.items.map((i) => i.serviceName))];
  if (letter.series) return `${names[0] ?? ""} (${wordsFor(letter).series(letter.items.length)})`;
  return names.join(" + ");
}

/** Text on one line: control characters (a line break in a name) become spaces, so no header can follow. */
export const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]/gu, " ");

/** The subject line: the kind, what, and when it starts; one line, whatever the names hold. */
export const subjectOf = (letter: Letter): string => oneLine(subjectLine(letter));

function subjectLine(letter: Letter): string {
  const words = wordsFor(letter).subject;
  const first = letter.items[0];
  const when = first ? shortWhen(letter.locale, first.startTime, first.timezone) : "";
  const topic = topicOf(letter);
  switch (letter.kind) {
    case "confirmation":
      return (first?.pending ? words.requested : words.confirmed)(topic, when);
    case "rescheduled":
      return words.rescheduled(topic, when);
    case "cancelled":
      return words.cancelled(topic, when);
    case "reminder":
      return words.reminder(topic, when);
    case "conflict":
      return words.conflict(topic, when);
    case "conflict_alert":
      return words.conflictAlert(topic, when);
  }
}

/** The opening sentence. */
function leadOf(letter: Letter): string {
  const lead = wordsFor(letter).lead;
  switch (letter.kind) {
    case "confirmation":
      if (letter.items.length > 1) return lead.confirmedMany(letter.business, letter.items.length);
      return (letter.items[0]?.pending ? lead.requested : lead.confirmed)(letter.business);
    case "rescheduled":
      return lead.rescheduled(letter.business);
    case "cancelled":
      return lead.cancelled(letter.business);
    case "reminder":
      return lead.reminder(letter.business);
    case "conflict":
      return lead.conflict(letter.business);
    case "conflict_alert":
      return lead.conflictAlert(letter.customerName ?? letter.customerEmail);
  }
}

/** The greeting: the customer's first name, or none. */
function greetingOf(letter: Letter): string {
  const words = wordsFor(letter);
  // The business's notice of a conflict greets the business, not the customer it names.
  const first = letter.kind === "conflict_alert" ? undefined : letter.customerName?.trim().split(/\s+/)[0];
  return first ? words.hello(first) : words.helloAnyone;
}

/** The closing line: how to reach the business (in the business's notice of a conflict: the customer). */
function contactLineOf(letter: Letter): string {
  const words = wordsFor(letter);
  if (letter.kind === "conflict_alert") return words.customer(letter.customerName ?? "", letter.customerEmail);
  return letter.contact ? words.contact(letter.contact) : words.reply;
}

/** The line about the attached calendar file, if the message has one. */
function inviteLineOf(letter: Letter): string | null {
  if (letter.kind === "reminder" || letter.kind.startsWith("conflict")) return null;
  const words = wordsFor(letter);
  return letter.kind === "cancelled" ? words.cancelInvite : words.invite;
}

/** One booking as both parts show it. */
export type ItemContent = {
  service: string;
  when: string;
  /** Where a moved booking was, as a line. */
  previously: string | null;
  manage: { label: string; url: string } | null;
};

/** What the text and HTML parts say, in order: the text part writes it as paragraphs, the HTML part as blocks. */
export type Content = {
  subject: string;
  greeting: string;
  lead: string;
  items: ItemContent[];
  reason: string | null;
  invite: string | null;
  contact: string;
  business: string;
};

/** The letter's content, in its language, each time in its booking's zone. */
export function contentOf(letter: Letter): Content {
  const words = wordsFor(letter);
  const label = letter.items.length > 1 ? words.manageOne : words.manage;
  return {
    subject: subjectOf(letter),
    greeting: greetingOf(letter),
    lead: leadOf(letter),
    items: letter.items.map((item) => ({
      service: item.serviceName,
      when: whenOf(letter.locale, item, item.timezone),
      previously: item.previous ? `${words.previously}: ${whenOf(letter.locale, item.previous, item.timezone)}` : null,
      manage: item.manageUrl ? { label, url: item.manageUrl } : null,
    })),
    reason: letter.reason ? `${words.reason}: ${letter.reason}` : null,
    invite: inviteLineOf(letter),
    contact: contactLineOf(letter),
    business: letter.business,
  };
}
