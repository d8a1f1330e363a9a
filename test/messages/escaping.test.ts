/**
 * Names and reasons as typed, whatever they hold: in the HTML part of every kind of e-mail, in
 * both languages, `<`, `>`, `&`, `"` and `'` are escaped (a customer named `<script>` adds no
 * element, a quote closes no attribute); the plain-text part shows them as typed.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { renderHtml } from "../../src/messages/render/html";
import type { Letter } from "../../src/messages/render/letter";
import { renderText } from "../../src/messages/render/text";
import { locales } from "../../src/types/business";
import { messageKinds } from "../../src/types/message";
import { api, json } from "../support/api";
import { at, bookingBody, calendarStub, plus } from "../support/bookings";
import { mailingBusiness, sentTo, settledMessages } from "../support/messages";

/** How HTML writes these characters: the reading a mail client turns back into the text. */
const escaped = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

const customer = `<script>alert("Ann")</script>&'Bo' O'Hara`;
const service = `Cut & "Dry" <b>deluxe</b>`;
const business = `Tom & Jerry's <i>"Salon"</i>`;
const reason = `Ill </p><script>x()</script> & 'away'`;

/** The elements an e-mail's HTML is made of: nothing a name or a reason could add. */
const ELEMENTS = new Set(["html", "head", "meta", "title", "body", "p", "b", "br", "s", "a"]);
const elementsOf = (html: string) => new Set([...html.matchAll(/<\/?([a-z]+)/gi)].map(([, tag]) => tag?.toLowerCase()));

/** Each value is in the text part as typed, and escaped in the HTML part, which has only its own elements. */
function expectShown(mail: { text?: string; html?: string }, values: string[]) {
  const { text = "", html = "" } = mail;
  for (const value of values) {
    expect(text).toContain(value);
    expect(html).toContain(escaped(value));
  }
  expect([...elementsOf(html)].filter((tag) => !ELEMENTS.has(tag as string))).toEqual([]);
  expect(html).not.toMatch(/<script|<i>|<b>deluxe/i);
}

function letterOf(kind: Letter["kind"], locale: Letter["locale"]): Letter {
  return {
    kind,
    locale,
    business,
    customerName: customer,
    customerEmail: "ann@example.com",
    contact: "desk@salon.example",
    organizer: { name: business, email: "desk@salon.example" },
    items: [
      {
        id: "bkg_1",
        serviceName: service,
        startTime: "2030-01-08T10:00:00Z",
        endTime: "2030-01-08T10:30:00Z",
        timezone: "Europe/Berlin",
        pending: false,
        version: 2,
        updatedAt: "2030-01-01T00:00:00Z",
        manageUrl: "https://book.example/manage/t0k?lang=de&x=1",
        previous: { startTime: "2030-01-08T09:00:00Z", endTime: "2030-01-08T09:30:00Z" },
      },
    ],
    series: false,
    reason,
  };
}

describe("an e-mail's HTML part", () => {
  it("escapes the customer's, service's and business's names, the reason and the link in every kind, English and German; the text part has them as typed", () => {
    const first = customer.split(" ")[0] as string;
    for (const locale of locales) {
      for (const kind of messageKinds) {
        const letter = letterOf(kind, locale);
        const mail = { text: renderText(letter), html: renderHtml(letter) };
        // The business's notice of a conflict names the whole customer; the others greet their first name.
        const name = kind === "conflict_alert" ? customer : first;
        expectShown(mail, [name, service, business, reason]);
        expect(mail.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${locale}">`));
        expect(mail.html).toContain('href="https://book.example/manage/t0k?lang=de&amp;x=1"');
        expect(mail.text).toContain("https://book.example/manage/t0k?lang=de&x=1");
      }
    }
  });
});

describe("e-mails sent for a booking with such names", () => {
  it("confirmation, reminder, move and cancellation: escaped in HTML, as typed in text", async () => {
    const m = await mailingBusiness({ name: business }, { name: service, reminders: [{ offsetMinutes: 60 }] });
    const start = at(3, "15:00");
    const body = bookingBody(m.service.id, start, { customerName: customer });
    const booking = await json(await api("POST", "/bookings", { key: m.apiKey, body }));
    await settledMessages(m.apiKey, booking.id, 1);
    vi.setSystemTime(Date.parse(start) - 59 * 60_000);
    try {
      await runDurableObjectAlarm(calendarStub(m.businessId, m.service.id));
    } finally {
      vi.useRealTimers();
    }
    await settledMessages(m.apiKey, booking.id, 2);
    const moved = { startTime: plus(start, 60), endTime: plus(start, 90) };
    expect((await api("POST", `/bookings/${booking.id}/reschedule`, { key: m.apiKey, body: moved })).status).toBe(200);
    await settledMessages(m.apiKey, booking.id, 3);
    const cancel = { reason };
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: m.apiKey, body: cancel })).status).toBe(200);
    const messages = await settledMessages(m.apiKey, booking.id, 4);
    // The reminder is listed by its (faked) time of writing: compare the kinds, not their order.
    expect(messages.map((x) => `${x.kind} ${x.status}`).sort()).toEqual([
      "cancelled sent",
      "confirmation sent",
      "reminder sent",
      "rescheduled sent",
    ]);
    const mails = sentTo(booking.customerEmail).map((s) => s.message as EmailMessageBuilder);
    expect(mails).toHaveLength(4);
    const first = customer.split(" ")[0] as string;
    for (const mail of mails) {
      expectShown(mail, [first, service, business]);
      expect(mail.html).toContain(`<title>${escaped(mail.subject)}</title>`);
    }
    const cancelled = mails.find((mail) => mail.subject.startsWith("Booking cancelled"));
    expectShown(cancelled as EmailMessageBuilder, [reason]);
  });
});
