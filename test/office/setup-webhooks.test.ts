/**
 * The owner's webhooks page: an endpoint registered from the office is the API's (its events, its
 * status), its signing secret shown once on the page answering the form (never cached, never on
 * the list); deleting it removes it; the audit names the member; a bad, private or plain-http
 * address or no event is a 422 page naming the field with nothing registered; the page is the
 * owner's alone and cross-site posts are refused. German words when asked.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";

const hooksOf = async (key: string) => (await json(await api("GET", "/webhooks", { key }))).data;
const secretOf = (html: string) => /id="secret">(whsec_[^<]+)</.exec(html)?.[1];
const url = "https://example.com/hooks/bookings";

describe("the webhooks page", () => {
  it("registers an endpoint with its secret shown once, lists it without the secret, and deletes it", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    expect((await page("/office/setup", owner.cookie)).html).toContain('href="/office/setup/webhooks"');
    expect((await page("/office/setup/webhooks", owner.cookie)).html).toContain("No webhook endpoints yet.");
    const res = await office("POST", "/office/setup/webhooks", {
      cookie: owner.cookie,
      form: { url, description: "Our CRM", "events.booking.created": "on", "events.booking.cancelled": "on" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    expect(res.headers.get("Location")).toBeNull();
    const secret = secretOf(await res.text()) as string;
    expect(secret).toMatch(/^whsec_/);
    const [hook] = await hooksOf(s.apiKey);
    expect(hook).toMatchObject({
      url,
      description: "Our CRM",
      events: ["booking.created", "booking.cancelled"],
      status: "active",
    });

    const listed = await page("/office/setup/webhooks", owner.cookie);
    expect(listed.html).toContain(url);
    expect(listed.html).toContain("booking.created, booking.cancelled");
    expect(listed.html).not.toContain(secret);
    expect(secretOf(listed.html)).toBeUndefined();

    const deleted = await office("POST", `/office/setup/webhooks/${hook.id}/delete`, { cookie: owner.cookie });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("Location")).toBe("/office/setup/webhooks?done=deleted");
    expect(await hooksOf(s.apiKey)).toEqual([]);
    expect((await api("GET", `/webhooks/${hook.id}`, { key: s.apiKey })).status).toBe(404);
    expect((await page("/office/setup/webhooks?done=deleted", owner.cookie)).html).toContain("Endpoint deleted");

    const audit = (await json(await api("GET", `/audit-events?resourceId=${hook.id}`, { key: s.apiKey }))).data;
    expect(audit.map((e: { action: string }) => e.action).sort()).toEqual(["webhook.created", "webhook.deleted"]);
    for (const event of audit) expect(event.actor).toMatchObject({ type: "member", id: owner.id });
  });

  it("a bad, private, local or plain-http address or no event is a 422 page naming the field; none registered", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const event = { "events.booking.created": "on" };
    for (const [form, field] of [
      [{ url: "not an address", ...event }, "s-url"],
      [{ url: "https://10.0.0.7/hooks", ...event }, "s-url"],
      [{ url: "https://192.168.1.20/hooks", ...event }, "s-url"],
      [{ url: "https://localhost/hooks", ...event }, "s-url"],
      [{ url: "http://example.com/hooks", ...event }, "s-url"],
      [{ url }, "s-events"],
      [{ url, "events.booking.everything": "on" }, "s-events"],
    ] as const) {
      const res = await office("POST", "/office/setup/webhooks", { cookie: owner.cookie, form });
      expect(res.status, form.url).toBe(422);
      const html = await res.text();
      expect(html, `${form.url} ${field}`).toContain(`id="${field}-err"`);
      expect(html).toContain("Nothing was saved");
      expect(secretOf(html)).toBeUndefined();
    }
    expect(await hooksOf(s.apiKey)).toEqual([]);
  });

  it("is the owner's: the front desk and staff get the 403 page, a cross-site post changes nothing; German", async () => {
    const s = await salon(1);
    const made = await json(
      await api("POST", "/webhooks", { key: s.apiKey, body: { url, events: ["booking.created"] } }),
    );
    const form = { url: "https://example.org/mine", "events.booking.created": "on" };
    for (const role of ["frontdesk", "staff"] as const) {
      const member = await deskMember(s, role);
      const shown = await page("/office/setup/webhooks", member.cookie);
      expect(shown.status, role).toBe(403);
      expect(shown.html).toContain("Not yours to set up");
      expect((await office("POST", "/office/setup/webhooks", { cookie: member.cookie, form })).status, role).toBe(403);
      const remove = `/office/setup/webhooks/${made.id}/delete`;
      expect((await office("POST", remove, { cookie: member.cookie })).status, role).toBe(403);
    }
    const owner = await deskMember(s, "owner");
    const cross = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    expect(
      (await office("POST", "/office/setup/webhooks", { cookie: owner.cookie, form, headers: cross })).status,
    ).toBe(403);
    const remove = `/office/setup/webhooks/${made.id}/delete`;
    expect((await office("POST", remove, { cookie: owner.cookie, headers: cross })).status).toBe(403);
    expect((await hooksOf(s.apiKey)).map((h: { id: string }) => h.id)).toEqual([made.id]);
    const german = await page("/office/setup/webhooks", owner.cookie, { "Accept-Language": "de" });
    for (const text of ["Endpunkte", "Ereignisse", "Endpunkt hinzufügen", "aktiv", "Löschen"]) {
      expect(german.html, text).toContain(text);
    }
  });
});
