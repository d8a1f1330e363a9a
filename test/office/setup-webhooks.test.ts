/**
 * The owner's webhooks page: an endpoint registered from the office is the API's (its events, its
 * status), its signing secret shown once on the page answering the form (never cached, never on
 * the list); the same form sent again registers no second endpoint and says so; deleting it is
 * asked first on a page naming it, then removes it; the audit names the member; a bad, private or plain-http
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
const attemptOf = (html: string) => /name="attempt" value="([^"]+)"/.exec(html)?.[1];
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

    const step = `/office/setup/webhooks/${hook.id}/delete`;
    expect(listed.html).toContain(`href="${step}"`);
    const asked = await page(step, owner.cookie);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain(`Delete the endpoint ${url}?`);
    expect(asked.html).toContain(`<form method="post" action="${step}"`);
    expect(asked.html).toMatch(/<a class="btn ghost" href="\/office\/setup\/webhooks">Cancel<\/a>/);
    // Asking deletes nothing.
    expect((await hooksOf(s.apiKey)).length).toBe(1);

    const deleted = await office("POST", step, { cookie: owner.cookie });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("Location")).toBe("/office/setup/webhooks?done=deleted");
    expect(await hooksOf(s.apiKey)).toEqual([]);
    expect((await api("GET", `/webhooks/${hook.id}`, { key: s.apiKey })).status).toBe(404);
    expect((await page("/office/setup/webhooks?done=deleted", owner.cookie)).html).toContain("Endpoint deleted");
    expect((await page(step, owner.cookie)).status).toBe(404);

    const audit = (await json(await api("GET", `/audit-events?resourceId=${hook.id}`, { key: s.apiKey }))).data;
    expect(audit.map((e: { action: string }) => e.action).sort()).toEqual(["webhook.created", "webhook.deleted"]);
    for (const event of audit) expect(event.actor).toMatchObject({ type: "member", id: owner.id });
  });

  it("the same form sent again registers no second endpoint: the answer says so, without the secret", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const attempt = attemptOf((await page("/office/setup/webhooks", owner.cookie)).html) as string;
    expect(attempt).toMatch(/^[0-9a-f-]{36}$/);
    const form = { attempt, url, "events.booking.created": "on" };
    const first = await office("POST", "/office/setup/webhooks", { cookie: owner.cookie, form });
    const secret = secretOf(await first.text()) as string;
    expect(secret).toMatch(/^whsec_/);

    const resent = await office("POST", "/office/setup/webhooks", { cookie: owner.cookie, form });
    expect(resent.status).toBe(200);
    expect(resent.headers.get("Cache-Control")).toContain("no-store");
    const html = await resent.text();
    expect(html).toContain(`This form was sent before: the endpoint ${url} was added then`);
    expect(secretOf(html)).toBeUndefined();
    expect(html).not.toContain(secret);
    expect(await hooksOf(s.apiKey)).toHaveLength(1);

    const changed = { ...form, url: "https://example.org/other" };
    const reused = await office("POST", "/office/setup/webhooks", { cookie: owner.cookie, form: changed });
    expect(reused.status).toBe(409);
    expect(await reused.text()).toContain("This form already added an endpoint from other fields");
    expect(await hooksOf(s.apiKey)).toHaveLength(1);
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
      expect((await page(remove, member.cookie)).status, role).toBe(403);
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
    const step = await page(remove, owner.cookie, { "Accept-Language": "de" });
    for (const text of [`Den Endpunkt ${url} löschen?`, "Endpunkt löschen", "Abbrechen"]) {
      expect(step.html, text).toContain(text);
    }
    const other = await salon(1);
    const theirs = await json(
      await api("POST", "/webhooks", { key: other.apiKey, body: { url, events: ["booking.created"] } }),
    );
    expect((await page(`/office/setup/webhooks/${theirs.id}/delete`, owner.cookie)).status).toBe(404);
  });
});
