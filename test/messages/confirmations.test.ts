/**
 * Confirmations, end to end in the Workers runtime: a booking made any way (API, hold, agent,
 * a visit, a series) makes one message, which the queue's consumer sends through the real
 * `send_email` binding (test/support/worker.ts records what it was handed); its text and HTML parts and
 * its invite, parsed by ical.js, say what a customer needs. The operator import mails nobody.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json } from "../support/api";
import { at, bookingBody, plus } from "../support/bookings";
import { eventually } from "../support/eventually";
import { callTool } from "../support/mcp";
import { captured, inviteOf, mailingBusiness, messagesOf, sentTo, settledMessages } from "../support/messages";
import { heldOnPage, pageBusiness, publicBooking } from "../support/public";

// Asia/Tokyo keeps UTC+9 all year: 01:00Z is 10:00 there, whatever the date.
const tokyo = { timezone: "Asia/Tokyo" };

describe("a confirmation", () => {
  it("has a text part, an HTML part and an invite: the time in the service's zone and named, the business, its reply address, the manage link", async () => {
    const m = await mailingBusiness({}, tokyo);
    const body = bookingBody(m.service.id, at(3, "01:00"), { customerName: "Marie Curie" });
    const booking = await json(await api("POST", "/bookings", { key: m.apiKey, body }));
    const [message] = await settledMessages(m.apiKey, booking.id, 1);
    expect(message).toMatchObject({
      kind: "confirmation",
      to: booking.customerEmail,
      status: "sent",
      reason: null,
      attempts: 1,
      subject: expect.stringMatching(/^Booking confirmed: Haircut, .*10:00 AM$/),
    });
    expect(message?.messageIdHeader).toMatch(/^<.+@example\.com>$/);

    const [mail] = sentTo(booking.customerEmail);
    const sent = mail?.message as EmailMessageBuilder;
    expect(sent.from).toEqual({ email: "bookings@example.com", name: "Salon Süd" });
    expect(sent.replyTo).toBe("desk@salon.example");
    expect(sent.subject).toBe(message?.subject);
    expect(sent.headers).toMatchObject({ "X-Booking-Message-Id": message?.id, "Auto-Submitted": "auto-generated" });
    for (const part of [sent.text, sent.html] as string[]) {
      expect(part).toContain("Marie");
      expect(part).toContain("Salon Süd");
      expect(part).toContain("Haircut");
      expect(part).toContain("10:00 AM – 10:30 AM (Asia/Tokyo)");
      expect(part).toContain("desk@salon.example");
      expect(part).toContain(booking.manageUrl);
    }
    // Nothing is loaded from anywhere: no images, scripts, styles or frames; the one link is the manage link.
    expect(sent.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(sent.html).not.toMatch(/<img|<script|<link|<iframe|src=|url\(/i);
    expect([...(sent.html as string).matchAll(/href="([^"]+)"/g)].map(([, href]) => href)).toEqual([booking.manageUrl]);

    const invite = inviteOf(mail as NonNullable<typeof mail>);
    expect(invite?.attachment).toMatchObject({
      disposition: "attachment",
      filename: "invite.ics",
      type: "text/calendar; charset=utf-8; method=REQUEST",
    });
    expect(invite?.method).toBe("REQUEST");
    expect(invite?.events).toEqual([
      {
        uid: booking.id,
        sequence: 1,
        start: booking.startTime,
        end: booking.endTime,
        status: "CONFIRMED",
        organizer: "mailto:desk@salon.example",
        attendee: `mailto:${booking.customerEmail}`,
      },
    ]);

    // The binding took it for real: what it captured (as `wrangler dev` does) is what was sent.
    const files = await captured(message?.messageIdHeader as string, [
      "email-text/.txt",
      "email-html/.html",
      "email-attachment/-1.ics",
    ]);
    expect(files["email-text/.txt"]).toBe(sent.text);
    expect(files["email-html/.html"]).toBe(sent.html);
    expect(files["email-attachment/-1.ics"]).toBe(invite?.attachment.content);
  });

  it("speaks the business's language: German", async () => {
    const m = await mailingBusiness({ locale: "de" }, tokyo);
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "02:00")) }),
    );
    const [message] = await settledMessages(m.apiKey, booking.id, 1);
    expect(message?.subject).toMatch(/^Buchung bestätigt: Haircut, .*11:00$/);
    const sent = sentTo(booking.customerEmail)[0]?.message as EmailMessageBuilder;
    expect(sent.text).toContain("Hallo Ada,");
    expect(sent.text).toContain("Ihre Buchung bei Salon Süd ist bestätigt.");
    expect(sent.text).toContain("11:00 – 11:30 (Asia/Tokyo)");
    expect(sent.html).toContain('<html lang="de">');
  });

  it("has a subject of one line, whatever the service's name holds", async () => {
    const m = await mailingBusiness({}, { name: "Cut" });
    // The API refuses a line break in a name now; a row stored before that rule may hold one.
    await env.DB_0.prepare("UPDATE services SET name = ? WHERE id = ?")
      .bind("Cut\r\nBcc: someone@example.com", m.service.id)
      .run();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "09:00")) }),
    );
    const [message] = await settledMessages(m.apiKey, booking.id, 1);
    expect(message?.subject).toMatch(/^Booking confirmed: Cut {2}Bcc: someone@example\.com, /);
    expect(sentTo(booking.customerEmail)[0]?.message.subject).not.toMatch(/[\r\n]/);
  });

  it("of a PENDING booking is a request received (the invite TENTATIVE); confirming it sends the confirmation", async () => {
    const m = await mailingBusiness({}, { requiresConfirmation: true });
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "10:00")) }),
    );
    expect(booking.status).toBe("PENDING");
    const [request] = await settledMessages(m.apiKey, booking.id, 1);
    expect(request?.subject).toMatch(/^Booking request received: /);
    expect(inviteOf(sentTo(booking.customerEmail)[0] as never)?.events[0]?.status).toBe("TENTATIVE");
    const patch = { status: "CONFIRMED" };
    expect((await api("PATCH", `/bookings/${booking.id}`, { key: m.apiKey, body: patch })).status).toBe(200);
    const [, confirmed] = await settledMessages(m.apiKey, booking.id, 2);
    expect(confirmed).toMatchObject({ kind: "confirmation", status: "sent" });
    expect(confirmed?.subject).toMatch(/^Booking confirmed: /);
    expect(inviteOf(sentTo(booking.customerEmail)[1] as never)?.events[0]).toMatchObject({
      uid: booking.id,
      sequence: 2,
      status: "CONFIRMED",
    });
  });

  it("is one message for a whole visit, listed under each of its bookings, with one event per segment", async () => {
    const m = await mailingBusiness();
    const colour = await createService(m.apiKey, { name: "Colour", durationMinutes: 60 });
    const visit = {
      customerName: "Grace Hopper",
      customerEmail: "grace@example.com",
      startTime: at(3, "10:00"),
      segments: [{ serviceId: m.service.id }, { serviceId: colour.id }],
    };
    const res = await api("POST", "/appointments", { key: m.apiKey, body: visit });
    expect(res.status).toBe(201);
    const { id, bookings } = await json(res);
    const [first] = await settledMessages(m.apiKey, bookings[0].id, 1);
    expect(first).toMatchObject({ kind: "confirmation", status: "sent", groupId: id });
    expect(await messagesOf(m.apiKey, bookings[1].id)).toEqual([first]);
    const mails = sentTo("grace@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.message.text).toContain("Haircut");
    expect(mails[0]?.message.text).toContain("Colour");
    expect(inviteOf(mails[0] as never)?.events.map((e) => [e.uid, e.start, e.end])).toEqual(
      bookings.map((b: { id: string; startTime: string; endTime: string }) => [b.id, b.startTime, b.endTime]),
    );
  });

  it("is one message for a series, listing every occurrence", async () => {
    const m = await mailingBusiness();
    const start = at(2, "10:00");
    const series = {
      serviceId: m.service.id,
      customerName: "Ada Lovelace",
      customerEmail: "ada.series@example.com",
      startTime: start,
      endTime: plus(start, 30),
      recurrence: "FREQ=WEEKLY;COUNT=4",
    };
    const res = await api("POST", "/series", { key: m.apiKey, body: series });
    expect(res.status).toBe(201);
    const { id, bookings } = await json(res);
    expect(bookings).toHaveLength(4);
    const [message] = await settledMessages(m.apiKey, bookings[3].id, 1);
    expect(message).toMatchObject({ kind: "confirmation", groupId: id, status: "sent" });
    expect(message?.subject).toMatch(/^Booking confirmed: Haircut \(4 appointments\), /);
    const mails = sentTo("ada.series@example.com");
    expect(mails).toHaveLength(1);
    expect(inviteOf(mails[0] as never)?.events.map((e) => e.uid)).toEqual(bookings.map((b: { id: string }) => b.id));
    for (const b of bookings) expect(mails[0]?.message.text).toContain(b.manageUrl);
  });

  it("follows a booking made from a hold, and one made by an agent over MCP", async () => {
    const m = await mailingBusiness();
    const hold = await json(
      await api("POST", "/holds", {
        key: m.apiKey,
        body: { serviceId: m.service.id, startTime: at(3, "11:00"), endTime: at(3, "11:30") },
      }),
    );
    const fromHold = await json(
      await api("POST", "/bookings", {
        key: m.apiKey,
        body: { holdId: hold.id, customerName: "Irène Joliot-Curie", customerEmail: "irene@example.com" },
      }),
    );
    expect(await settledMessages(m.apiKey, fromHold.id, 1)).toMatchObject([{ kind: "confirmation", status: "sent" }]);

    const result = await callTool(m.apiKey, "book_appointment", {
      ...bookingBody(m.service.id, at(3, "12:00")),
      customerEmail: "agent.customer@example.com",
    });
    const byAgent = result.structuredContent;
    expect(await settledMessages(m.apiKey, byAgent.id, 1)).toMatchObject([{ kind: "confirmation", status: "sent" }]);
    expect(sentTo("irene@example.com")).toHaveLength(1);
    expect(sentTo("agent.customer@example.com")).toHaveLength(1);
  });
});

describe("a confirmation from the booking page", () => {
  it("follows a booking made on the business's page, with its manage link", async () => {
    const page = await pageBusiness();
    expect((await api("PATCH", "/business", { key: page.apiKey, body: { emails: { enabled: true } } })).status).toBe(
      200,
    );
    const hold = await heldOnPage(page.slug, page.serviceId, at(3, "16:00"));
    const res = await publicBooking(page.slug, hold, { customerEmail: "page.customer@example.com" });
    expect(res.status).toBe(201);
    const view = await json(res);
    const [message] = await settledMessages(page.apiKey, view.id, 1);
    expect(message).toMatchObject({ kind: "confirmation", status: "sent", to: "page.customer@example.com" });
    expect(sentTo("page.customer@example.com")[0]?.message.text).toContain(view.manageUrl);
  });
});

describe("no confirmation", () => {
  it("for the operator import, nor while the business has e-mails off", async () => {
    const m = await mailingBusiness();
    const imported = await exports.default.fetch(
      new Request(`http://api.test/internal/services/${m.service.id}/import`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer test-admin-token" },
        body: JSON.stringify({
          bookings: [{ ...bookingBody(m.service.id, at(3, "13:00"), { customerEmail: "moved.in@example.com" }) }].map(
            ({ serviceId: _s, ...b }) => b,
          ),
        }),
      }),
    );
    expect(await imported.json()).toEqual({ imported: 1, refused: [] });
    const quiet = await createAccount();
    const service = await createService(quiet.apiKey);
    const off = await json(
      await api("POST", "/bookings", {
        key: quiet.apiKey,
        body: bookingBody(service.id, at(3, "14:00"), { customerEmail: "nobody.mails@example.com" }),
      }),
    );
    // A booking after both, mailed: once it has gone out, the two before it would have too.
    const later = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "15:00")) }),
    );
    await settledMessages(m.apiKey, later.id, 1);
    await eventually(async () => (sentTo(later.customerEmail).length === 1 ? true : undefined), "the later mail");
    // Its D1 write (with any message) was done before the import answered: it has none.
    const movedIn = await json(await api("GET", `/bookings?serviceId=${m.service.id}&limit=100`, { key: m.apiKey }));
    const importedId = movedIn.data.find(
      (b: { customerEmail: string }) => b.customerEmail === "moved.in@example.com",
    ).id;
    expect(await messagesOf(m.apiKey, importedId)).toEqual([]);
    expect(sentTo("moved.in@example.com")).toEqual([]);
    expect(sentTo("nobody.mails@example.com")).toEqual([]);
    expect(await messagesOf(quiet.apiKey, off.id)).toEqual([]);
  });
});
