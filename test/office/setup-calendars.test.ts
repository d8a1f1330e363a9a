/**
 * A person's connected calendars and calendar feed from their setup page: connecting a calendar on
 * a real CalDAV server (Xandikos), reading it now, disconnecting it after the page that asks;
 * making the feed's address (shown once, read as text/calendar), a reload that makes no second
 * one, a new one replacing it, ending it after asking; the audit naming the member. Then refusals
 * (bad addresses: the form again, nothing stored) and who may (a staff member their own person
 * only, the front desk not at all, no cross-site post).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { api, json, origin } from "../support/api";
import { caldavBase, connect, newCollection } from "../support/connected-calendars";
import { readFeed } from "../support/feeds";
import { type Salon, salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";

const person = (s: Salon, i: number) => `/office/setup/people/${s.providerIds[i]}`;
const cross = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

/**
 * An office request as `npm run dev` serves it (WEBHOOKS_ALLOW_LOCAL=true), so that a calendar on
 * this machine — the test's CalDAV server — may be connected.
 */
async function local(method: string, path: string, cookie: string, form?: Record<string, string>) {
  const headers = new Headers({ Cookie: `__Host-session=${cookie}`, Origin: origin });
  if (form) headers.set("Content-Type", "application/x-www-form-urlencoded");
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const request = new Request(`${origin}${path}`, { method, headers, body, redirect: "manual" });
  const ctx = createExecutionContext();
  const res = await app.fetch(request, { ...env, WEBHOOKS_ALLOW_LOCAL: "true" }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const calendarsOf = async (key: string, providerId: string) =>
  (await json(await api("GET", `/providers/${providerId}/calendars`, { key }))).data;
const auditOf = async (key: string, resourceId: string) =>
  (await json(await api("GET", `/audit-events?resourceId=${resourceId}`, { key }))).data;

/** The feed address a page shows in its read-only field, if any. */
const shownFeed = (html: string) => /<input id="feedurl"[^>]*value="([^"]+)"/.exec(html)?.[1];
/** The `replacing` value of the page's feed form. */
const replacingOf = (html: string) => /name="replacing" value="([^"]*)"/.exec(html)?.[1] ?? "";
/** A feed address's path under /api/v1. */
const feedPath = (url: string) => url.slice(`${origin}/api/v1`.length);

describe("connected calendars and the feed from the person's page", () => {
  it("the owner connects a CalDAV calendar, reads it now and disconnects it after confirming; the audit names them", async () => {
    const s = await salon(2);
    const owner = await deskMember(s, "owner");
    const url = await newCollection();
    const form = { url, username: "", password: "", writeBookings: "on" };
    const connected = await local("POST", `${person(s, 1)}/calendars`, owner.cookie, form);
    expect(connected.status).toBe(303);
    expect(connected.headers.get("Location")).toBe(`${person(s, 1)}?done=connected`);
    const [calendar] = await calendarsOf(s.apiKey, s.providerIds[1] as string);
    expect(calendar).toMatchObject({ url, syncStatus: "ok", writeBookings: true });
    const shown = (await page(`${person(s, 1)}?done=connected`, owner.cookie)).html;
    for (const text of ["Calendar connected and read.", url, "in sync", "last read", "bookings are written into it"]) {
      expect(shown, text).toContain(text);
    }

    const synced = await local("POST", `${person(s, 1)}/calendars/${calendar.id}/sync`, owner.cookie);
    expect(synced.headers.get("Location")).toBe(`${person(s, 1)}?done=synced`);

    const asks = await page(`${person(s, 1)}/calendars/${calendar.id}/disconnect`, owner.cookie);
    expect(asks.status).toBe(200);
    expect(asks.html).toContain(`Disconnect ${url}?`);
    expect(asks.html).toContain(`action="${person(s, 1)}/calendars/${calendar.id}/disconnect"`);
    // Asking changed nothing.
    expect(await calendarsOf(s.apiKey, s.providerIds[1] as string)).toHaveLength(1);
    const gone = await office("POST", `${person(s, 1)}/calendars/${calendar.id}/disconnect`, { cookie: owner.cookie });
    expect(gone.headers.get("Location")).toBe(`${person(s, 1)}?done=disconnected`);
    expect(await calendarsOf(s.apiKey, s.providerIds[1] as string)).toEqual([]);
    expect((await page(`${person(s, 1)}?done=disconnected`, owner.cookie)).html).toContain("No calendars connected.");
    // Sent again (a second tab): nothing to do, no second record.
    const again = await office("POST", `${person(s, 1)}/calendars/${calendar.id}/disconnect`, { cookie: owner.cookie });
    expect(again.status).toBe(303);

    const audit = await auditOf(s.apiKey, calendar.id);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(["calendar.disconnected", "calendar.connected"]);
    for (const record of audit) expect(record.actor).toEqual({ type: "member", id: owner.id });
    expect(audit[1].fields).toEqual(["url", "writeBookings"]);
  });

  it("a calendar whose read fails is kept, failing, with its error; its password is never shown", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const missing = `${caldavBase()}/user/calendars/${crypto.randomUUID()}/`;
    const form = { url: missing, username: "sam", password: "app-pass-1234" };
    const res = await local("POST", `${person(s, 0)}/calendars`, owner.cookie, form);
    expect(res.headers.get("Location")).toBe(`${person(s, 0)}?done=connectedFailing`);
    const [calendar] = await calendarsOf(s.apiKey, s.providerIds[0] as string);
    expect(calendar).toMatchObject({ url: missing, syncStatus: "failing", writeBookings: false });
    const html = (await page(`${person(s, 0)}?done=connectedFailing`, owner.cookie)).html;
    expect(html).toContain("its first read failed");
    expect(html).toContain("failing");
    expect(html).toContain(`last error: ${calendar.lastError}`);
    expect(html).not.toContain("app-pass-1234");
    const synced = await local("POST", `${person(s, 0)}/calendars/${calendar.id}/sync`, owner.cookie);
    expect(synced.headers.get("Location")).toBe(`${person(s, 0)}?done=syncFailed`);
    expect((await page(`${person(s, 0)}?done=syncFailed`, owner.cookie)).html).toContain("The read failed");
  });

  it("the owner makes a feed address, shown once and read as text/calendar; a reload makes none, a new one replaces it, ending it after confirming", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const mine = person(s, 0);
    const before = (await page(mine, owner.cookie)).html;
    expect(before).toContain("No feed address yet.");
    expect(replacingOf(before)).toBe("");

    const made = await office("POST", `${mine}/feed`, { cookie: owner.cookie, form: { replacing: "" } });
    expect(made.status).toBe(200);
    expect(made.headers.get("Cache-Control")).toBe("no-store");
    const html = await made.text();
    expect(html).toContain("Shown this once");
    expect(html).toContain("readonly");
    const first = shownFeed(html) as string;
    expect(first).toMatch(/^http:\/\/api\.test\/api\/v1\/feeds\/cal_[A-Za-z0-9_-]{43}\.ics$/);
    const read = await readFeed(feedPath(first));
    expect(read.status).toBe(200);
    expect(read.headers.get("Content-Type")).toContain("text/calendar");
    expect(await read.text()).toContain("BEGIN:VCALENDAR");

    // The answer reloaded sends the same form again: no second address, the first still works.
    const reloaded = await office("POST", `${mine}/feed`, { cookie: owner.cookie, form: { replacing: "" } });
    expect(reloaded.status).toBe(409);
    const said = await reloaded.text();
    expect(said).toContain("Nothing new was made");
    expect(shownFeed(said)).toBeUndefined();
    expect((await readFeed(feedPath(first))).status).toBe(200);

    const now = (await page(mine, owner.cookie)).html;
    expect(now).toContain("A feed address was made on");
    expect(now).toContain("the old address stops working at once");
    const replaced = await office("POST", `${mine}/feed`, {
      cookie: owner.cookie,
      form: { replacing: replacingOf(now) },
    });
    expect(replaced.status).toBe(200);
    const second = shownFeed(await replaced.text()) as string;
    expect(second).not.toBe(first);
    expect((await readFeed(feedPath(first))).status).toBe(404);
    expect((await readFeed(feedPath(second))).status).toBe(200);

    const asks = await page(`${mine}/feed/end`, owner.cookie);
    expect(asks.status).toBe(200);
    expect(asks.html).toContain("End the calendar feed?");
    expect((await readFeed(feedPath(second))).status).toBe(200);
    const ended = await office("POST", `${mine}/feed/end`, { cookie: owner.cookie });
    expect(ended.headers.get("Location")).toBe(`${mine}?done=feedEnded`);
    expect((await readFeed(feedPath(second))).status).toBe(404);
    const after = (await page(`${mine}?done=feedEnded`, owner.cookie)).html;
    expect(after).toContain("Feed ended: its address no longer works.");
    expect(after).toContain("No feed address yet.");

    const audit = (await auditOf(s.apiKey, s.providerIds[0] as string)).filter((a: { action: string }) =>
      a.action.startsWith("provider.feed_"),
    );
    expect(audit.map((a: { action: string }) => a.action)).toEqual([
      "provider.feed_ended",
      "provider.feed_issued",
      "provider.feed_issued",
    ]);
    for (const record of audit) expect(record.actor).toEqual({ type: "member", id: owner.id });
  });

  it("a staff member connects a calendar and makes a feed for their own person; German words", async () => {
    const s = await salon(2);
    const staff = await deskMember(s, "staff");
    const mine = person(s, 0);
    const url = await newCollection();
    const res = await local("POST", `${mine}/calendars`, staff.cookie, { url });
    expect(res.headers.get("Location")).toBe(`${mine}?done=connected`);
    const [calendar] = await calendarsOf(s.apiKey, s.providerIds[0] as string);
    expect(calendar.url).toBe(url);
    const made = await office("POST", `${mine}/feed`, { cookie: staff.cookie, form: { replacing: "" } });
    expect(made.status).toBe(200);
    expect((await readFeed(feedPath(shownFeed(await made.text()) as string))).status).toBe(200);
    const audit = await auditOf(s.apiKey, calendar.id);
    expect(audit[0]).toMatchObject({ action: "calendar.connected", actor: { type: "member", id: staff.id } });
    const german = (await page(mine, staff.cookie, { "Accept-Language": "de" })).html;
    for (const text of ["Verbundene Kalender", "Kalender verbinden", "Jetzt abgleichen", "Kalender-Feed", "Trennen"]) {
      expect(german, text).toContain(text);
    }
  });
});

describe("refused calendar addresses", () => {
  it("a bad address comes back in the form with its problem, the password left out, and nothing is stored", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const cases = [
      { url: "not an address", problem: "Invalid URL" },
      { url: "http://calendar.example.com/dav/", problem: "https" },
    ];
    for (const { url, problem } of cases) {
      const res = await local("POST", `${person(s, 0)}/calendars`, owner.cookie, { url, password: "app-pass-1234" });
      expect(res.status, url).toBe(422);
      const html = await res.text();
      expect(html).toContain("Nothing was saved");
      expect(html).toMatch(new RegExp(`id="s-url-err"[^>]*>[^<]*${problem}`));
      expect(html).toContain(`value="${url}"`);
      expect(html).not.toContain("app-pass-1234");
    }
    // A calendar on this machine, where the deployment does not allow local addresses.
    const here = await office("POST", `${person(s, 0)}/calendars`, {
      cookie: owner.cookie,
      form: { url: await newCollection() },
    });
    expect(here.status).toBe(422);
    expect(await here.text()).toContain("work on a local development server only");
    expect(await calendarsOf(s.apiKey, s.providerIds[0] as string)).toEqual([]);
    expect(await auditOf(s.apiKey, s.providerIds[0] as string)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ action: "calendar.connected" })]),
    );
  });

  it("a sixth calendar is refused with the reason (409), nothing stored", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const id = s.providerIds[0] as string;
    for (let i = 0; i < 5; i++) await connect(s.apiKey, id, { url: await newCollection() });
    const res = await local("POST", `${person(s, 0)}/calendars`, owner.cookie, { url: await newCollection() });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("at most 5 calendars: disconnect one first");
    expect(await calendarsOf(s.apiKey, id)).toHaveLength(5);
  });

  it("an unknown calendar's disconnect page is the 404 page", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const res = await page(`${person(s, 0)}/calendars/cal_01jd3k5v7q8r9s0t1u2v3w4x5y/disconnect`, owner.cookie);
    expect(res.status).toBe(404);
  });
});

describe("who may", () => {
  it("a staff member's another person is a 404 page, sending or asking, and nothing changes", async () => {
    const s = await salon(2);
    const owner = await deskMember(s, "owner");
    const theirs = person(s, 1);
    await local("POST", `${theirs}/calendars`, owner.cookie, { url: await newCollection() });
    const [calendar] = await calendarsOf(s.apiKey, s.providerIds[1] as string);
    const staff = await deskMember(s, "staff");
    const url = await newCollection();
    const tries = [
      await local("POST", `${theirs}/calendars`, staff.cookie, { url }),
      await local("POST", `${theirs}/calendars/${calendar.id}/sync`, staff.cookie),
      await office("GET", `${theirs}/calendars/${calendar.id}/disconnect`, { cookie: staff.cookie }),
      await office("POST", `${theirs}/calendars/${calendar.id}/disconnect`, { cookie: staff.cookie }),
      await office("POST", `${theirs}/feed`, { cookie: staff.cookie, form: { replacing: "" } }),
      await office("GET", `${theirs}/feed/end`, { cookie: staff.cookie }),
      await office("POST", `${theirs}/feed/end`, { cookie: staff.cookie }),
    ];
    for (const res of tries) {
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(calendar.url);
    }
    expect((await calendarsOf(s.apiKey, s.providerIds[1] as string)).map((c: { id: string }) => c.id)).toEqual([
      calendar.id,
    ]);
    expect((await page(theirs, owner.cookie)).html).toContain("No feed address yet.");
  });

  it("the front desk gets the 403 page; a cross-site post changes nothing", async () => {
    const s = await salon(1);
    const desk = await deskMember(s, "frontdesk");
    const mine = person(s, 0);
    const url = await newCollection();
    expect((await local("POST", `${mine}/calendars`, desk.cookie, { url })).status).toBe(403);
    expect((await office("POST", `${mine}/feed`, { cookie: desk.cookie, form: { replacing: "" } })).status).toBe(403);
    expect((await office("GET", `${mine}/feed/end`, { cookie: desk.cookie })).status).toBe(403);

    const owner = await deskMember(s, "owner");
    await local("POST", `${mine}/calendars`, owner.cookie, { url });
    const [calendar] = await calendarsOf(s.apiKey, s.providerIds[0] as string);
    const made = await office("POST", `${mine}/feed`, { cookie: owner.cookie, form: { replacing: "" } });
    const feed = shownFeed(await made.text()) as string;
    const posts = [
      [`${mine}/calendars`, { url: await newCollection() }],
      [`${mine}/calendars/${calendar.id}/disconnect`, {}],
      [`${mine}/feed`, { replacing: replacingOf((await page(mine, owner.cookie)).html) }],
      [`${mine}/feed/end`, {}],
    ] as const;
    for (const [path, form] of posts) {
      const res = await office("POST", path, { cookie: owner.cookie, form: { ...form }, headers: cross });
      expect(res.status, path).toBe(403);
    }
    expect(await calendarsOf(s.apiKey, s.providerIds[0] as string)).toHaveLength(1);
    expect((await readFeed(feedPath(feed))).status).toBe(200);
  });
});
