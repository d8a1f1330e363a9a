/**
 * The owner's business settings page: saved through the API's own update (the API then shows the
 * change, the audit names the member and the fields changed), a bad field is a 422 page naming it
 * with nothing changed, and the page is the owner's alone (403 for the front desk and staff,
 * cross-site posts refused). German words when asked.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";
import { formOf as formAt } from "./setup-forms";

const businessOf = async (key: string) => json(await api("GET", "/business", { key }));

const formOf = (cookie: string, changes: Record<string, string | undefined>) =>
  formAt("/office/setup/business", cookie, changes);

describe("the business settings page", () => {
  it("saves the changed fields through the API's update, the member the audit's actor", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const shown = await page("/office/setup/business", owner.cookie);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Business settings");
    expect((await page("/office/setup", owner.cookie)).html).toContain('href="/office/setup/business"');
    const slug = `salon-${crypto.randomUUID().slice(0, 8)}`;
    const form = await formOf(owner.cookie, {
      name: "Salon Renamed",
      slug,
      "bookingPage.enabled": "on",
      "bookingPage.title": "Book with us",
      "bookingPage.accentColor": "#0b6e4f",
      "conflicts.notifyCustomer": "on",
    });
    const res = await office("POST", "/office/setup/business", { cookie: owner.cookie, form });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/office/setup/business?done=saved");
    expect((await page("/office/setup/business?done=saved", owner.cookie)).html).toContain("Settings saved.");
    const business = await businessOf(s.apiKey);
    expect(business).toMatchObject({
      name: "Salon Renamed",
      slug,
      bookingPage: { enabled: true, title: "Book with us", accentColor: "#0b6e4f" },
      conflicts: { notifyCustomer: true },
    });
    const audit = (await json(await api("GET", `/audit-events?resourceId=${business.id}`, { key: s.apiKey }))).data;
    expect(audit[0]).toMatchObject({ actor: { type: "member", id: owner.id }, action: "business.updated" });
    expect([...audit[0].fields].sort()).toEqual(["bookingPage", "conflicts", "name", "slug"]);

    // The same form again changes nothing and records nothing.
    const same = await office("POST", "/office/setup/business", {
      cookie: owner.cookie,
      form: await formOf(owner.cookie, {}),
    });
    expect(same.headers.get("Location")).toBe("/office/setup/business?done=unchanged");
    const after = (await json(await api("GET", `/audit-events?resourceId=${business.id}`, { key: s.apiKey }))).data;
    expect(after.length).toBe(audit.length);
  });

  it("a bad field is a 422 page naming it, and nothing changes", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const before = await businessOf(s.apiKey);
    for (const [changes, field] of [
      [{ timezone: "Mars/Olympus" }, "s-timezone"],
      [{ "bookingPage.accentColor": "green" }, "s-bookingPage-accentColor"],
      [{ slug: "-bad-" }, "s-slug"],
      [{ "emails.replyTo": "not an address" }, "s-emails-replyTo"],
    ] as const) {
      const res = await office("POST", "/office/setup/business", {
        cookie: owner.cookie,
        form: await formOf(owner.cookie, { ...changes, name: "Not Saved" }),
      });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      expect(html, field).toContain(`id="${field}-err"`);
      expect(html).toContain("Nothing was saved");
      expect(html).toContain('value="Not Saved"');
    }
    expect(await businessOf(s.apiKey)).toEqual(before);
  });

  it("on a German page the problems are German: zod's, the API's sentences, and a slug another business has", async () => {
    const s = await salon(1);
    const other = await salon(1);
    const taken = `salon-${crypto.randomUUID().slice(0, 8)}`;
    await api("PATCH", "/business", { key: other.apiKey, body: { slug: taken } });
    const owner = await deskMember(s, "owner");
    const before = await businessOf(s.apiKey);
    for (const [changes, field, words] of [
      [{ "bookingPage.accentColor": "green" }, "s-bookingPage-accentColor", "Verwenden Sie #rrggbb."],
      [{ slug: "-bad-" }, "s-slug", "Verwenden Sie 3–40 Zeichen aus a–z, 0–9 und -"],
      [{ "emails.replyTo": "not an address" }, "s-emails-replyTo", "Geben Sie eine gültige E-Mail-Adresse ein."],
      [{ slug: taken }, "s-slug", "Schon von einem anderen Betrieb vergeben."],
    ] as const) {
      const res = await office("POST", "/office/setup/business", {
        cookie: owner.cookie,
        form: await formOf(owner.cookie, { ...changes, name: "Nicht gespeichert" }),
        headers: { "Accept-Language": "de" },
      });
      expect([409, 422], field).toContain(res.status);
      const html = await res.text();
      expect(new RegExp(`id="${field}-err">([^<]*)<`).exec(html)?.[1], field).toContain(words);
    }
    expect(await businessOf(s.apiKey)).toEqual(before);
  });

  it("is the owner's: the front desk and staff get the 403 page, a cross-site post changes nothing; German", async () => {
    const s = await salon(1);
    const before = await businessOf(s.apiKey);
    for (const role of ["frontdesk", "staff"] as const) {
      const member = await deskMember(s, role);
      const shown = await page("/office/setup/business", member.cookie);
      expect(shown.status, role).toBe(403);
      expect(shown.html).toContain("Not yours to set up");
      const post = await office("POST", "/office/setup/business", {
        cookie: member.cookie,
        form: { name: "Taken Over" },
      });
      expect(post.status, role).toBe(403);
    }
    const owner = await deskMember(s, "owner");
    const cross = await office("POST", "/office/setup/business", {
      cookie: owner.cookie,
      form: await formOf(owner.cookie, { name: "Cross Site" }),
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(cross.status).toBe(403);
    expect(await businessOf(s.apiKey)).toEqual(before);
    const german = await page("/office/setup/business", owner.cookie, { "Accept-Language": "de" });
    for (const text of ["Geschäftseinstellungen", "Zeitzone", "Einstellungen speichern"]) {
      expect(german.html, text).toContain(text);
    }
  });
});
