/**
 * E-mails to customers against `npm run dev`: the demo business has them on, and `wrangler dev`
 * captures every message instead of sending it. A booking's confirmation is read back through
 * the Local Explorer's API (subject, addresses, headers, both parts) and its invite from the file
 * the capture wrote, parsed by ical.js; the messages log names the same message.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { eventually } from "../support/eventually";
import { api, bookingBody, createBooking, createOpenService, origin, type Schemas, utcAt } from "./support";

type Captured = {
  to: string[];
  from: string;
  subject: string;
  messageId: string;
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; disposition: string }[];
  text?: string;
  html?: string;
};

const explorer = `${origin}/cdn-cgi/local/explorer/api/local/email/sending`;

async function explore(query: string): Promise<{ result: unknown }> {
  const response = await fetch(`${explorer}?${query}`, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  return (await response.json()) as { result: unknown };
}

/** The invite the capture wrote for a message (under the project's .wrangler/tmp/email/). */
function capturedInvite(messageId: string): string | undefined {
  const root = path.resolve(import.meta.dirname, "..", "..", ".wrangler", "tmp", "email");
  const id = messageId.replace(/^<|>$/g, "");
  for (const dir of readdirSync(root)) {
    const file = path.join(root, dir, "email-attachment", `${id}-1.ics`);
    try {
      return readFileSync(file, "utf8");
    } catch {}
  }
  return undefined;
}

describe("e-mails to customers", () => {
  it("a booking's confirmation arrives in the local capture: its parts, its invite and the log agree", async () => {
    const service = await createOpenService();
    const customerEmail = `marie.${Date.now().toString(36)}@example.com`;
    const booking = await createBooking(
      bookingBody(service, utcAt(5, 10), { customerName: "Marie Curie", customerEmail }),
    );

    const message = await eventually(
      async () => {
        const { data } = await api.GET("/bookings/{id}/messages", { params: { path: { id: booking.id } } });
        const [first] = data?.data ?? [];
        return first?.status === "sent" ? (first as Schemas["Message"]) : undefined;
      },
      "the confirmation to be sent",
      20_000,
      200,
    );
    expect(message).toMatchObject({ kind: "confirmation", to: customerEmail, reason: null });

    const listed = await eventually(
      async () => {
        const list = (await explore("per_page=100")).result as Captured[];
        return list.find((m) => m.headers["X-Booking-Message-Id"] === message.id);
      },
      "the capture to list it",
      20_000,
      200,
    );
    expect(listed).toMatchObject({
      to: [customerEmail],
      from: '"Demo Salon" <bookings@example.com>',
      subject: message.subject,
      messageId: message.messageIdHeader,
    });
    expect(listed.attachments).toEqual([
      expect.objectContaining({
        filename: "invite.ics",
        contentType: "text/calendar; charset=utf-8; method=REQUEST",
        disposition: "attachment",
      }),
    ]);

    const detail = (await explore(`email_id=${encodeURIComponent(listed.messageId)}`)).result as Captured;
    const manageUrl = booking.manageUrl as string;
    for (const part of [detail.text, detail.html]) {
      expect(part).toContain("Marie");
      expect(part).toContain(service.name);
      expect(part).toContain(manageUrl);
      expect(part).toContain("(UTC)");
    }
    expect(detail.html).not.toMatch(/<img|src=/i);

    const ics = await eventually(async () => capturedInvite(listed.messageId), "the captured invite", 20_000, 200);
    const calendar = new ICAL.Component(ICAL.parse(ics));
    expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent") as ICAL.Component);
    expect(event.uid).toBe(booking.id);
    expect(event.sequence).toBe(1);
    expect(event.startDate.toJSDate().toISOString()).toBe(new Date(booking.startTime).toISOString());
  });
});
