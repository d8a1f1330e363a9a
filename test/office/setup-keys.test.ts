/**
 * The owner's API keys page: a key made from the office is shown once, on the page answering the
 * form (never cached, never again on the list), and works on the API with exactly the scopes
 * ticked; the same form sent again makes no second key and says so; revoking it is asked first on
 * a page naming it, then refuses its next request; the audit names the member; a key without
 * scopes or a name is a 422 page naming the field with no key made; the pages are the owner's
 * alone and cross-site posts are refused. German words when asked.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";

const keysOf = async (key: string) => (await json(await api("GET", "/api-keys?limit=100", { key }))).data;
const secretOf = (html: string) => /id="secret">(bk_(?:live|test)_[^<]+)</.exec(html)?.[1];
const attemptOf = (html: string) => /name="attempt" value="([^"]+)"/.exec(html)?.[1];

describe("the API keys page", () => {
  it("makes a key shown once that has exactly the ticked scopes, then revokes it at once", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    expect((await page("/office/setup", owner.cookie)).html).toContain('href="/office/setup/api-keys"');
    const res = await office("POST", "/office/setup/api-keys", {
      cookie: owner.cookie,
      form: { name: "Till", "scopes.bookings:read": "on", "scopes.catalog:read": "on", mode: "live" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    expect(res.headers.get("Location")).toBeNull();
    expect(res.headers.get("Set-Cookie") ?? "").not.toMatch(/bk_/);
    const key = secretOf(await res.text()) as string;
    expect(key).toMatch(/^bk_live_/);

    expect((await api("GET", "/services", { key })).status).toBe(200);
    expect((await api("GET", "/bookings", { key })).status).toBe(200);
    expect((await api("GET", "/customers", { key })).status).toBe(403);
    expect((await api("GET", "/api-keys", { key })).status).toBe(403);
    const made = (await keysOf(s.apiKey)).find((k: { name: string }) => k.name === "Till");
    expect(made).toMatchObject({ scopes: ["bookings:read", "catalog:read"], revokedAt: null, mode: "live" });

    const listed = await page("/office/setup/api-keys", owner.cookie);
    expect(listed.html).toContain("Till");
    expect(listed.html).toContain(made.prefix);
    expect(listed.html).not.toContain(key);
    expect(secretOf(listed.html)).toBeUndefined();

    const step = `/office/setup/api-keys/${made.id}/revoke`;
    expect(listed.html).toContain(`href="${step}"`);
    const asked = await page(step, owner.cookie);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("Revoke the key “Till”?");
    expect(asked.html).toContain(`<form method="post" action="${step}"`);
    expect(asked.html).toMatch(/<a class="btn ghost" href="\/office\/setup\/api-keys">Cancel<\/a>/);
    // Asking revokes nothing.
    expect((await api("GET", "/services", { key })).status).toBe(200);

    const revoked = await office("POST", step, { cookie: owner.cookie });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toBe("/office/setup/api-keys?done=revoked");
    expect((await api("GET", "/services", { key })).status).toBe(401);
    expect((await page("/office/setup/api-keys?done=revoked", owner.cookie)).html).toContain("Key revoked");
    const again = await page(step, owner.cookie);
    expect(again.html).toContain("This key is already revoked");
    expect(again.html).not.toContain(`action="${step}"`);

    const audit = (await json(await api("GET", `/audit-events?resourceId=${made.id}`, { key: s.apiKey }))).data;
    expect(audit.map((e: { action: string }) => e.action).sort()).toEqual(["apiKey.created", "apiKey.revoked"]);
    for (const event of audit) expect(event.actor).toMatchObject({ type: "member", id: owner.id });
  });

  it("the same form sent again makes no second key: the answer says it was made and is not shown again", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const before = (await keysOf(s.apiKey)).length;
    const attempt = attemptOf((await page("/office/setup/api-keys", owner.cookie)).html) as string;
    expect(attempt).toMatch(/^[0-9a-f-]{36}$/);
    const form = { attempt, name: "Reloaded", "scopes.bookings:read": "on", mode: "live" };
    const first = await office("POST", "/office/setup/api-keys", { cookie: owner.cookie, form });
    const key = secretOf(await first.text()) as string;
    expect(key).toMatch(/^bk_live_/);

    const resent = await office("POST", "/office/setup/api-keys", { cookie: owner.cookie, form });
    expect(resent.status).toBe(200);
    expect(resent.headers.get("Cache-Control")).toContain("no-store");
    const html = await resent.text();
    expect(html).toContain("This form was sent before: the key “Reloaded” was made then");
    expect(html).toContain("It is not shown again");
    expect(secretOf(html)).toBeUndefined();
    expect(html).not.toContain(key);
    // The answer's own form is a new attempt.
    expect(attemptOf(html)).not.toBe(attempt);
    expect((await keysOf(s.apiKey)).length).toBe(before + 1);

    // The same attempt with other fields (the browser's history, the form changed): nothing made.
    const changed = { ...form, name: "Changed" };
    const reused = await office("POST", "/office/setup/api-keys", { cookie: owner.cookie, form: changed });
    expect(reused.status).toBe(409);
    const reusedHtml = await reused.text();
    expect(reusedHtml).toContain("This form already made a key from other fields");
    expect(secretOf(reusedHtml)).toBeUndefined();
    expect((await keysOf(s.apiKey)).length).toBe(before + 1);
    const german = await office("POST", "/office/setup/api-keys", {
      cookie: owner.cookie,
      form,
      headers: { "Accept-Language": "de" },
    });
    expect(await german.text()).toContain("Dieses Formular wurde schon einmal gesendet");
  });

  it("a key with no scope, no name or an unknown scope is a 422 page naming the field, and no key is made", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const before = (await keysOf(s.apiKey)).length;
    for (const [form, field] of [
      [{ name: "No scopes" }, "s-scopes"],
      [{ name: "", "scopes.bookings:read": "on" }, "s-name"],
      [{ name: "Odd", "scopes.everything:write": "on" }, "s-scopes"],
    ] as const) {
      const res = await office("POST", "/office/setup/api-keys", { cookie: owner.cookie, form });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      expect(html, field).toContain(`id="${field}-err"`);
      expect(html).toContain("Nothing was saved");
      expect(secretOf(html)).toBeUndefined();
    }
    expect((await keysOf(s.apiKey)).length).toBe(before);
  });

  it("is the owner's: the front desk and staff get the 403 page, a cross-site post makes no key; German", async () => {
    const s = await salon(1);
    const before = (await keysOf(s.apiKey)).length;
    const form = { name: "Mine", "scopes.bookings:read": "on" };
    for (const role of ["frontdesk", "staff"] as const) {
      const member = await deskMember(s, role);
      const shown = await page("/office/setup/api-keys", member.cookie);
      expect(shown.status, role).toBe(403);
      expect(shown.html).toContain("Not yours to set up");
      expect((await office("POST", "/office/setup/api-keys", { cookie: member.cookie, form })).status, role).toBe(403);
    }
    const owner = await deskMember(s, "owner");
    const first = (await keysOf(s.apiKey))[0];
    for (const role of ["frontdesk", "staff"] as const) {
      const member = await deskMember(s, role);
      const asked = await page(`/office/setup/api-keys/${first.id}/revoke`, member.cookie);
      expect(asked.status, role).toBe(403);
      expect(
        (await office("POST", `/office/setup/api-keys/${first.id}/revoke`, { cookie: member.cookie })).status,
      ).toBe(403);
    }
    // Another business's key, or none, is the 404 page.
    const other = await salon(1);
    const theirs = (await keysOf(other.apiKey))[0];
    for (const id of [theirs.id, "key_nothing"]) {
      expect((await page(`/office/setup/api-keys/${id}/revoke`, owner.cookie)).status, id).toBe(404);
    }
    const cross = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    const made = await office("POST", "/office/setup/api-keys", { cookie: owner.cookie, form, headers: cross });
    expect(made.status).toBe(403);
    const revoke = `/office/setup/api-keys/${first.id}/revoke`;
    expect((await office("POST", revoke, { cookie: owner.cookie, headers: cross })).status).toBe(403);
    const after = await keysOf(s.apiKey);
    expect(after.length).toBe(before);
    expect(after[0].revokedAt).toBeNull();
    const german = await page("/office/setup/api-keys", owner.cookie, { "Accept-Language": "de" });
    for (const text of ["API-Schlüssel", "Berechtigungen", "Schlüssel erstellen", "Widerrufen"]) {
      expect(german.html, text).toContain(text);
    }
    const step = await page(`/office/setup/api-keys/${first.id}/revoke`, owner.cookie, { "Accept-Language": "de" });
    for (const text of ["widerrufen?", "Schlüssel widerrufen", "Abbrechen"]) expect(step.html, text).toContain(text);
  });
});
