/**
 * The first-run checklist: an owner of a new business sees three steps above the day (a service
 * offered online, hours, the booking page on), each ticked once done through the office's own
 * forms, ending at the live booking page; it is gone after the first booking, and the front desk
 * and staff never see it. German words when asked.
 */
import { describe, expect, it } from "vitest";
import { memberOf } from "../support/access";
import { createAccount, createService } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { newProvider } from "../support/fixtures";
import { office, signIn } from "../support/members";
import { deskMember, deskSalon, page } from "../support/office";
import { freshSlug, getPage } from "../support/public";
import { formOf } from "./setup-forms";

const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
/** Every day's first hours field set to `value` ("" clears it). */
const week = (value: string) => Object.fromEntries(days.map((d) => [`${d}.0`, value]));

/** A business just made, with its owner signed in. */
async function newBusiness() {
  const account = await createAccount("Fresh Salon");
  const email = `owner.${crypto.randomUUID().slice(0, 8)}@example.com`;
  await memberOf(account.apiKey, { role: "owner", email, name: "Olivia Owner" });
  return { ...account, cookie: await signIn(email) };
}

/** The checklist on `/office` as `cookie` sees it: its steps' states in order, and the page's HTML. */
async function checklist(cookie: string, headers: Record<string, string> = {}) {
  const day = await page("/office", cookie, headers);
  expect(day.status).toBe(200);
  const panel = /<section class="firstrun".*?<\/section>/s.exec(day.html)?.[0];
  const states = [...(panel ?? "").matchAll(/<li( class="done")?>/g)].map((m) => (m[1] ? "done" : "todo"));
  return { panel, states, html: day.html };
}

/** Posts a setup form as the browser would (its fields with `changes`), expecting the 303 back. */
async function send(path: string, action: string, cookie: string, changes: Record<string, string | undefined>) {
  const res = await office("POST", action, { cookie, form: await formOf(path, cookie, changes) });
  expect(res.status, await res.clone().text()).toBe(303);
  return res.headers.get("Location") ?? "";
}

describe("the first-run checklist", () => {
  it("ticks each step as the owner does it in the office and ends at the live booking page", async () => {
    const b = await newBusiness();
    const fresh = await checklist(b.cookie);
    expect(fresh.panel).toContain("Get your booking page live");
    expect(fresh.states).toEqual(["todo", "todo", "todo"]);
    expect(fresh.panel).toContain('href="/office/setup/services/new"');
    expect(fresh.panel).toContain('href="/office/setup/business"');
    expect(fresh.panel).not.toContain("/book/");

    // A service offered online, with no hours of its own yet.
    const fields = { name: "Cut", bookableOnline: "on", ...week("") };
    const created = await send("/office/setup/services/new", "/office/setup/services", b.cookie, fields);
    const id = /\/office\/setup\/services\/(svc_\w+)/.exec(created)?.[1] as string;
    expect(id).toBeDefined();
    const serviced = await checklist(b.cookie);
    expect(serviced.states).toEqual(["done", "todo", "todo"]);
    expect(serviced.panel).toContain(`href="/office/setup/services/${id}"`);

    await send(`/office/setup/services/${id}`, `/office/setup/services/${id}`, b.cookie, week("09:00–17:00"));
    expect((await checklist(b.cookie)).states).toEqual(["done", "done", "todo"]);

    // The page on, at an address.
    const slug = freshSlug();
    await send("/office/setup/business", "/office/setup/business", b.cookie, { "bookingPage.enabled": "on", slug });
    const done = await checklist(b.cookie);
    expect(done.states).toEqual(["done", "done", "done"]);
    expect(done.panel).toContain(`href="/book/${slug}"`);
    const live = await getPage(`/book/${slug}`);
    expect(live.status).toBe(200);
    expect(await live.text()).toContain("Cut");

    // The first booking: the business is past its first run, the day is the day alone.
    await book(b.apiKey, bookingBody(id, at(2, "10:00")));
    const after = await checklist(b.cookie);
    expect(after.panel).toBeUndefined();
    expect(after.html).not.toContain("Get your booking page live");
  });

  it("a service not offered online does not tick the first step; one made through the API does", async () => {
    const b = await newBusiness();
    // The new service's form comes offered online; unticked, the service is not.
    expect((await formOf("/office/setup/services/new", b.cookie)).bookableOnline).toBe("on");
    await send("/office/setup/services/new", "/office/setup/services", b.cookie, {
      name: "Private",
      bookableOnline: undefined,
      ...week(""),
    });
    expect((await checklist(b.cookie)).states).toEqual(["todo", "todo", "todo"]);
    await createService(b.apiKey, { name: "Online", bookableOnline: true, weeklySchedule: {} });
    // A person's hours only narrow a service's: alone they give the page no times.
    await newProvider(b.apiKey, "Kim Lee");
    expect((await checklist(b.cookie)).states).toEqual(["done", "todo", "todo"]);
  });

  it("is in German when the browser asks for it", async () => {
    const b = await newBusiness();
    const de = await checklist(b.cookie, { "Accept-Language": "de-DE,de;q=0.9" });
    expect(de.panel).toContain("Ihre Buchungsseite online bringen");
    expect(de.panel).toContain("noch offen");
  });

  it("the front desk and staff of a new business never see it", async () => {
    const b = await newBusiness();
    const providerId = await newProvider(b.apiKey, "Sam Staff");
    for (const role of ["frontdesk", "staff"]) {
      const email = `${role}.${crypto.randomUUID().slice(0, 8)}@example.com`;
      await memberOf(b.apiKey, { role, email, name: "Frank Desk", ...(role === "staff" ? { providerId } : {}) });
      const day = await checklist(await signIn(email));
      expect(day.panel, role).toBeUndefined();
      expect(day.html, role).not.toContain("Get your booking page live");
    }
    expect((await checklist(b.cookie)).panel).toBeDefined();
  });

  it("a business that takes bookings has no checklist on its day", async () => {
    const s = await deskSalon();
    const owner = await deskMember(s, "owner");
    const day = await checklist(owner.cookie);
    expect(day.panel).toBeUndefined();
    expect(day.html).not.toContain("Get your booking page live");
  });
});
