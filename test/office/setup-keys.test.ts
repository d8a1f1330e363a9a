/**
 * The owner's API keys page: a key made from the office is shown once, on the page answering the
 * form (never cached, never again on the list), and works on the API with exactly the scopes
 * ticked; revoking it refuses its next request; the audit names the member; a key without scopes
 * or a name is a 422 page naming the field with no key made; the page is the owner's alone and
 * cross-site posts are refused. German words when asked.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";

const keysOf = async (key: string) => (await json(await api("GET", "/api-keys?limit=100", { key }))).data;
const secretOf = (html: string) => /id="secret">(bk_(?:live|test)_[^<]+)</.exec(html)?.[1];

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

    const revoked = await office("POST", `/office/setup/api-keys/${made.id}/revoke`, { cookie: owner.cookie });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toBe("/office/setup/api-keys?done=revoked");
    expect((await api("GET", "/services", { key })).status).toBe(401);
    expect((await page("/office/setup/api-keys?done=revoked", owner.cookie)).html).toContain("Key revoked");

    const audit = (await json(await api("GET", `/audit-events?resourceId=${made.id}`, { key: s.apiKey }))).data;
    expect(audit.map((e: { action: string }) => e.action).sort()).toEqual(["apiKey.created", "apiKey.revoked"]);
    for (const event of audit) expect(event.actor).toMatchObject({ type: "member", id: owner.id });
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
  });
});
