/**
 * Names that reach an e-mail's headers (the From name, the subject): the business's name, its
 * sender name, a service's and a person's. A line break in one would add a header (a Bcc to
 * anyone), so the API refuses control characters in them, and the message is cleaned where it is
 * built, for rows written before the rule.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, serviceBody, validationError } from "../support/api";
import { at, bookingBody } from "../support/bookings";
import { createProvider } from "../support/fixtures";
import { captured, mailingBusiness, sentTo, settledMessages } from "../support/messages";

const injected = "Shop\r\nBcc: attacker@evil.test\r\nX-Injected: 1";

describe("a name with a line break or another control character", () => {
  it("is refused as the business's name or sender name: 422 at the field, the business unchanged", async () => {
    const { apiKey } = await createAccount("Salon Nord");
    const before = await json(await api("GET", "/business", { key: apiKey }));
    for (const [body, path] of [
      [{ name: injected }, "name"],
      [{ name: "Salon\nNord" }, "name"],
      [{ name: "Salon\u2028Nord" }, "name"],
      [{ emails: { enabled: true, fromName: injected } }, "emails.fromName"],
      [{ emails: { enabled: true, fromName: "Salon\tNord" } }, "emails.fromName"],
    ] as const) {
      const error = await validationError(await api("PATCH", "/business", { key: apiKey, body }), path);
      expect(error.message).toMatch(/one line/);
    }
    expect(await json(await api("GET", "/business", { key: apiKey }))).toEqual(before);
  });

  it("is refused as a service's or a person's name, created or changed: 422 at name, nothing stored", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { name: "Haircut" });
    const person = await createProvider(apiKey, { name: "Alex Morgan" });
    await validationError(
      await api("POST", "/services", { key: apiKey, body: serviceBody({ name: injected }) }),
      "name",
    );
    await validationError(
      await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { name: "Cut\r\nBcc: x@evil.test" } }),
      "name",
    );
    await validationError(
      await api("POST", "/providers", { key: apiKey, body: { name: injected, timezone: "UTC", weeklySchedule: {} } }),
      "name",
    );
    await validationError(
      await api("PATCH", `/providers/${person.id}`, { key: apiKey, body: { name: "Alex\nBcc: x@evil.test" } }),
      "name",
    );
    const services = await json(await api("GET", "/services", { key: apiKey }));
    expect(services.data.map((s: { name: string }) => s.name)).toEqual(["Haircut"]);
    const people = await json(await api("GET", "/providers", { key: apiKey }));
    expect(people.data.map((p: { name: string }) => p.name)).toEqual(["Alex Morgan"]);
  });

  it("keeps spaces inside a name and trims its ends, as before", async () => {
    const { apiKey } = await createAccount();
    const res = await api("PATCH", "/business", {
      key: apiKey,
      body: { name: "  Salon  Süd ", emails: { enabled: false, fromName: " Salon Süd — Desk " } },
    });
    expect(await json(res)).toMatchObject({ name: "Salon  Süd", emails: { fromName: "Salon Süd — Desk" } });
  });
});

describe("an e-mail from rows written before the rule", () => {
  it("has a From name and a subject of one line, whatever the stored names hold", async () => {
    const m = await mailingBusiness({}, { name: "Haircut" });
    // Older rows: written before the API refused control characters, straight into D1.
    await env.DB_0.prepare("UPDATE businesses SET name = ?1, emails = json_set(emails, '$.fromName', ?1) WHERE id = ?2")
      .bind(injected, m.businessId)
      .run();
    await env.DB_0.prepare("UPDATE services SET name = ? WHERE id = ?")
      .bind("Cut\r\nBcc: someone@evil.test", m.service.id)
      .run();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "09:00")) }),
    );
    const [message] = await settledMessages(m.apiKey, booking.id, 1);
    expect(message?.status).toBe("sent");
    const sent = sentTo(booking.customerEmail)[0]?.message as EmailMessageBuilder;
    const from = sent.from as { email: string; name: string };
    expect(from.name).not.toMatch(/[\p{Cc}]/u);
    expect(from.name).toBe("Shop  Bcc: attacker@evil.test  X-Injected: 1");
    expect(sent.subject).not.toMatch(/[\p{Cc}]/u);
    expect(sent.subject).toMatch(/^Booking confirmed: Cut {2}Bcc: someone@evil\.test, /);
    expect(Object.keys(sent.headers ?? {})).not.toContain("Bcc");
    // The binding took it for real, and what it captured is that one message.
    const files = await captured(message?.messageIdHeader as string);
    expect(files["email-text/.txt"]).toBe(sent.text);
  });
});
