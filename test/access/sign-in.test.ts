/** Signing in by e-mail link at /office/sign-in, sessions, and the attacks on them. */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberSessions, members, signInLinks } from "../../src/db/schema";
import { memberOf } from "../support/access";
import { api, createAccount, directoryDb, json, origin } from "../support/api";
import { at, bookingBody } from "../support/bookings";
import { salon } from "../support/fixtures";
import { linkPath, viaLink } from "../support/manage-links";
import { asMember, cookieOf, linkFor, office, signIn } from "../support/members";
import { sentTo } from "../support/messages";

const unique = (name: string) => `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;

describe("signing in", () => {
  it("a link by e-mail, a button that posts it, a session cookie; the member becomes active and /office names them", async () => {
    const { apiKey } = await createAccount();
    const email = unique("owner");
    const member = await memberOf(apiKey, { role: "owner", email, name: "Olivia Owner" });
    const token = await linkFor(email);
    const landing = await office("GET", `/office/sign-in/link?token=${token}`);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('action="/office/sign-in/link"');
    const res = await office("POST", "/office/sign-in/link", { form: { token } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/office");
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__Host-session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const cookie = cookieOf(res) as string;
    const home = await office("GET", "/office", { cookie });
    expect(await home.text()).toContain("Olivia Owner");
    expect((await json(await api("GET", `/members/${member.id}`, { key: apiKey }))).status).toBe("active");
    // The session is a caller of the API with the owner's scopes.
    expect((await asMember("GET", "/members", cookie)).status).toBe(200);
  });

  it("the same answer for an unknown address, and no e-mail", async () => {
    const known = unique("known");
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "frontdesk", email: known });
    const a = await office("POST", "/office/sign-in", { form: { email: known } });
    const unknown = unique("nobody");
    const b = await office("POST", "/office/sign-in", { form: { email: unknown } });
    expect(a.status).toBe(b.status);
    const strip = (html: string) => html.replace(/nonce-[^']+/g, "");
    expect(strip(await a.text())).toBe(strip(await b.text()));
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(unknown)).toEqual([]);
  });

  it("sign-out ends the session", async () => {
    const { apiKey } = await createAccount();
    const email = unique("out");
    await memberOf(apiKey, { role: "owner", email });
    const cookie = await signIn(email);
    // Read once first: a session this isolate knows is checked alongside the read, and still ends at once.
    expect((await asMember("GET", "/members", cookie)).status).toBe(200);
    expect((await office("POST", "/office/sign-out", { cookie })).status).toBe(303);
    const after = await asMember("GET", "/members", cookie);
    expect(after.status).toBe(401);
    expect(JSON.stringify(await json(after))).not.toContain(email);
  });
});

describe("session lifetime", () => {
  it("a session idle for 12 hours is over, and so is one past 30 days however recently used", async () => {
    const { apiKey } = await createAccount();
    const email = unique("aging");
    const member = await memberOf(apiKey, { role: "owner", email });
    const idle = await signIn(email);
    const old = await signIn(email);
    const [first, second] = await directoryDb()
      .select()
      .from(memberSessions)
      .where(eq(memberSessions.memberId, member.id))
      .orderBy(memberSessions.createdAt);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    await directoryDb()
      .update(memberSessions)
      .set({ lastSeenAt: hoursAgo(11.9) })
      .where(eq(memberSessions.id, first?.id ?? ""));
    expect((await asMember("GET", "/members", idle)).status).toBe(200);
    await directoryDb()
      .update(memberSessions)
      .set({ lastSeenAt: hoursAgo(12.1) })
      .where(eq(memberSessions.id, first?.id ?? ""));
    expect((await asMember("GET", "/members", idle)).status).toBe(401);
    await directoryDb()
      .update(memberSessions)
      .set({ expiresAt: hoursAgo(0.01) })
      .where(eq(memberSessions.id, second?.id ?? ""));
    expect((await asMember("GET", "/members", old)).status).toBe(401);
  });

  it("a new role applies from the member's next request", async () => {
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "owner" }, true);
    const email = unique("promoted");
    const member = await memberOf(apiKey, { role: "frontdesk", email });
    const cookie = await signIn(email);
    expect((await asMember("GET", "/members", cookie)).status).toBe(403);
    await api("PATCH", `/members/${member.id}`, { key: apiKey, body: { role: "owner" } });
    expect((await asMember("GET", "/members", cookie)).status).toBe(200);
  });

  it("a demoted member's next read answers as their new role, not with what the old one could see", async () => {
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "owner" }, true);
    const email = unique("demoted");
    const member = await memberOf(apiKey, { role: "owner", email });
    const cookie = await signIn(email);
    expect((await asMember("GET", "/members", cookie)).status).toBe(200);
    await api("PATCH", `/members/${member.id}`, { key: apiKey, body: { role: "frontdesk" } });
    const res = await asMember("GET", "/members", cookie);
    expect(res.status).toBe(403);
    expect((await json(res)).code).toBe("insufficient_scope");
    expect((await asMember("GET", "/members", cookie)).status).toBe(403);
  });

  it("a change reads its business afresh: a booking made just after the manage-link key moved on (elsewhere) carries a link that works", async () => {
    const shop = await salon(1);
    const email = unique("desk");
    await memberOf(shop.apiKey, { role: "owner", email });
    const cookie = await signIn(email);
    // A read remembers the business's fields in this isolate…
    expect((await asMember("GET", "/bookings", cookie)).status).toBe(200);
    // …then the key moves on as another isolate would move it: nothing here is told.
    await env.DB_0.prepare("UPDATE businesses SET link_key_version = link_key_version + 1 WHERE id = ?")
      .bind(shop.businessId)
      .run();
    const made = await asMember("POST", "/bookings", cookie, bookingBody(shop.cut, at(3, "10:00")), {
      Origin: origin,
    });
    expect(made.status).toBe(201);
    expect((await viaLink("GET", linkPath((await json(made)).manageUrl))).status).toBe(200);
  });
});

describe("bounds", () => {
  it("at most 5 sign-in e-mails per address per 15 minutes, even for a concurrent burst", async () => {
    const { apiKey } = await createAccount();
    const email = unique("burst");
    await memberOf(apiKey, { role: "owner", email });
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        office("POST", "/office/sign-in", { form: { email }, headers: { "CF-Connecting-IP": `198.51.100.${i}` } }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(4);
  });

  it("at most 30 requests per client address per 15 minutes, known addresses or not", async () => {
    const client = { "CF-Connecting-IP": `203.0.113.${Math.floor(Math.random() * 250)}` };
    const answers = await Promise.all(
      Array.from({ length: 33 }, () =>
        office("POST", "/office/sign-in", { form: { email: unique("c") }, headers: client }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(30);
  });

  it("a bad address is a 422 page and records nothing", async () => {
    const res = await office("POST", "/office/sign-in", { form: { email: "not an address" } });
    expect(res.status).toBe(422);
  });
});

describe("attacks", () => {
  it("a link replayed, tampered with, or expired does not sign in", async () => {
    const { apiKey } = await createAccount();
    const email = unique("links");
    await memberOf(apiKey, { role: "owner", email });
    const token = await linkFor(email);
    expect((await office("POST", "/office/sign-in/link", { form: { token } })).status).toBe(303);
    const replay = await office("POST", "/office/sign-in/link", { form: { token } });
    expect(replay.status).toBe(400);
    expect(replay.headers.get("Set-Cookie")).toBeNull();

    const fresh = await linkFor(email);
    const [id, signature] = fresh.split(".") as [string, string];
    const flipped = `${id}.${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    expect((await office("POST", "/office/sign-in/link", { form: { token: flipped } })).status).toBe(400);

    await directoryDb()
      .update(signInLinks)
      .set({ expiresAt: "2000-01-01T00:00:00.000Z" })
      .where(eq(signInLinks.id, id));
    const expired = await office("POST", "/office/sign-in/link", { form: { token: fresh } });
    expect(expired.status).toBe(400);
    expect(expired.headers.get("Set-Cookie")).toBeNull();
  });

  it("session fixation: a cookie set before sign-in is not the session after, and never works", async () => {
    const { apiKey } = await createAccount();
    const email = unique("fix");
    await memberOf(apiKey, { role: "owner", email });
    const planted = "A".repeat(43);
    const token = await linkFor(email);
    const res = await office("POST", "/office/sign-in/link", { form: { token }, cookie: planted });
    const issued = cookieOf(res);
    expect(issued).toBeTruthy();
    expect(issued).not.toBe(planted);
    expect((await asMember("GET", "/members", planted)).status).toBe(401);
  });

  it("a cross-site form post is a 403 and sends nothing", async () => {
    const { apiKey } = await createAccount();
    const email = unique("xsite");
    await memberOf(apiKey, { role: "owner", email });
    const res = await office("POST", "/office/sign-in", {
      form: { email },
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
    const evil = await office("POST", "/office/sign-in", {
      form: { email },
      headers: { Origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(email)).toEqual([]);
  });

  it("a cross-site change through the API with the cookie is a 403 and changes nothing", async () => {
    const { apiKey } = await createAccount();
    const email = unique("xapi");
    await memberOf(apiKey, { role: "owner", email });
    const cookie = await signIn(email);
    const body = { email: unique("new"), name: "N", role: "frontdesk" };
    const res = await asMember("POST", "/members", cookie, body, { "Sec-Fetch-Site": "cross-site" });
    expect(res.status).toBe(403);
    expect((await json(await api("GET", "/members", { key: apiKey }))).data).toHaveLength(1);
  });

  it("a disabled member's old cookie is signed out at once; re-enabled, it stays over", async () => {
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "owner" }, true);
    const email = unique("disabled");
    const member = await memberOf(apiKey, { role: "frontdesk", email });
    const cookie = await signIn(email);
    expect((await asMember("GET", "/bookings", cookie)).status).toBe(200);
    await api("PATCH", `/members/${member.id}`, { key: apiKey, body: { status: "disabled" } });
    expect((await asMember("GET", "/bookings", cookie)).status).toBe(401);
    expect((await office("GET", "/office", { cookie })).status).toBe(303);
    await api("PATCH", `/members/${member.id}`, { key: apiKey, body: { status: "active" } });
    expect((await asMember("GET", "/bookings", cookie)).status).toBe(401);
  });

  it("a disabled member gets no session from a link sent before", async () => {
    const { apiKey } = await createAccount();
    await memberOf(apiKey, { role: "owner" }, true);
    const email = unique("late");
    const member = await memberOf(apiKey, { role: "frontdesk", email });
    const token = await linkFor(email);
    await directoryDb().update(members).set({ status: "disabled" }).where(eq(members.id, member.id));
    expect((await office("POST", "/office/sign-in/link", { form: { token } })).status).toBe(400);
  });
});
