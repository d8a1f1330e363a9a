/**
 * The office's day: who sees which columns, a booking made elsewhere on the page and in its
 * fingerprint, a person's week, dates that are not dates, conflicts in words, names escaped, German.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createService, insertBooking, json } from "../support/api";
import { at, book, bookingBody, dayOf } from "../support/bookings";
import { providerStub } from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { office } from "../support/members";
import { deskMember, deskSalon, page } from "../support/office";

const day = () => dayOf(2);

describe("the day page", () => {
  it("without a session sends the browser to sign in", async () => {
    for (const path of ["/office", `/office/day/${day()}`, "/office/bookings/bkg_x"]) {
      const res = await office("GET", path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("Location")).toBe("/office/sign-in");
    }
  });

  it("the owner and the front desk see every person's column with its bookings; the frame names them", async () => {
    const s = await deskSalon();
    for (const role of ["owner", "frontdesk"] as const) {
      const { cookie } = await deskMember(s, role);
      const { status, html, res } = await page(`/office/day/${day()}`, cookie);
      expect(status).toBe(200);
      expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
      expect(html).toContain(role === "owner" ? "Olivia Owner · Owner" : "Frank Desk · Front desk");
      expect(html).toContain("Stylist 0");
      expect(html).toContain("Stylist 1");
      // The start shown, the end said to screen readers (the block's height shows it).
      expect(html).toContain('<b>10:00 AM</b><span class="sr-only">–10:30 AM</span>');
      expect(html).toContain("Cut · Mine Customer");
      expect(html).toContain("Colour · Their Customer");
      expect(html).toContain(`href="/office/bookings/${s.mine.id}"`);
      expect(html).toContain("Working hours: 9:00 AM–5:00 PM");
      // One axis of hours (08:00–18:00) beside the columns; blocks and hours placed by the stylesheet's
      // classes: 10:00 is 2 hours past the axis's 08:00 and 6 steps of 5 minutes long; the working
      // hours 9–5 start an hour in and last 8. No style attribute (the CSP allows none), no rule per block.
      expect(html).toContain('<div class="axis" aria-hidden="true"><div><span>8:00 AM</span><span>9:00 AM</span>');
      expect(html).toContain("<span>5:00 PM</span></div></div>");
      expect(html).toContain(`<li class="a2 d6"><a href="/office/bookings/${s.mine.id}">`);
      expect(html).toContain('<div class="band a1 c8"></div>');
      expect(html).not.toContain("style=");
      expect(html).not.toContain("<style");
      expect(html).toContain(`href="/office/day/${dayOf(1)}"`);
      expect(html).toContain(`href="/office/day/${dayOf(3)}"`);
      expect(html).toContain('action="/office/sign-out"');
    }
  });

  it("staff see only their own column; another person's week is a 404 page, their own week shows their booking", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "staff");
    const { html } = await page(`/office/day/${day()}`, cookie);
    expect(html).toContain("Stylist 0");
    expect(html).toContain("Mine Customer");
    expect(html).not.toContain("Stylist 1");
    expect(html).not.toContain("Their Customer");
    const theirs = await page(`/office/week/${day()}/${s.providerIds[1]}`, cookie);
    expect(theirs.status).toBe(404);
    expect(theirs.html).toContain("Not found");
    expect(theirs.html).not.toContain("Their Customer");
    const own = await page(`/office/week/${day()}/${s.providerIds[0]}`, cookie);
    expect(own.status).toBe(200);
    expect(own.html).toContain("Stylist 0: week");
    expect(own.html).toContain("Mine Customer");
    expect((await page(`/office/day/${day()}/version`, cookie)).status).toBe(200);
    expect((await page(`/office/week/${day()}/${s.providerIds[1]}/version`, cookie)).status).toBe(404);
  });

  it("a person who is not the business's has no week (404 page), whoever asks", async () => {
    const s = await deskSalon();
    const other = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    expect((await page(`/office/week/${day()}/${other.providerIds[0]}`, cookie)).status).toBe(404);
    expect((await page(`/office/week/${day()}/prv_nobody`, cookie)).status).toBe(404);
  });

  it("a booking made through the API changes the day's fingerprint and shows in its columns", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const first = await page(`/office/day/${day()}/version`, cookie);
    const etag = first.res.headers.get("ETag") as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const same = await office("GET", `/office/day/${day()}/version`, { cookie, headers: { "If-None-Match": etag } });
    expect(same.status).toBe(304);
    await book(
      s.apiKey,
      bookingBody(s.cut, at(2, "14:00"), { providerId: s.providerIds[1], customerName: "Phoned In" }),
    );
    const after = await office("GET", `/office/day/${day()}/version`, { cookie, headers: { "If-None-Match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("ETag")).not.toBe(etag);
    const columns = await page(`/office/day/${day()}/columns`, cookie);
    expect(columns.html).toContain("Phoned In");
    // The same drawing as the page's: placed by classes, nothing for the script to place.
    expect(columns.html).toMatch(/<li class="a\d+ [^"]*"><a href="\/office\/bookings\/bkg_\w+"><b>2:00 PM<\/b>/);
    expect(columns.html).toContain('<div class="axis" aria-hidden="true">');
    expect(columns.html).not.toContain("<style");
    expect(columns.html).not.toContain("style=");
    expect(columns.res.headers.get("ETag")).toBe(after.headers.get("ETag"));
    // Another day's fingerprint is not this one's.
    expect((await page(`/office/day/${dayOf(5)}/version`, cookie)).res.headers.get("ETag")).not.toBe(
      after.headers.get("ETag"),
    );
  });

  it("a booking that stopped fitting is marked in words", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const person = s.providerIds[0] as string;
    const mornings = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const res = await api("PATCH", `/providers/${person}`, { key: s.apiKey, body: { weeklySchedule: mornings } });
    expect(res.status).toBe(200);
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    const html = await eventually(async () => {
      const { html } = await page(`/office/day/${day()}`, cookie);
      return html.includes("⚠ Conflict") ? html : undefined;
    }, "the conflict on the day");
    expect(html).toContain("Not working");
    expect(html.split("⚠ Conflict").length - 1).toBe(1);
  });

  it("bookings of a service without people or rooms get a column of their own", async () => {
    const s = await deskSalon();
    const plain = await createService(s.apiKey, { name: "Consultation" });
    await book(s.apiKey, bookingBody(plain.id, at(2, "15:00"), { customerName: "Nobody In Particular" }));
    const odd = `Ann <b>&</b> "Bo's"`;
    await book(s.apiKey, bookingBody(plain.id, at(2, "16:00"), { customerName: odd }));
    const { cookie } = await deskMember(s, "frontdesk");
    const { html } = await page(`/office/day/${day()}`, cookie);
    expect(html).toContain("Without a person or room");
    expect(html).toContain("Consultation · Nobody In Particular");
    // A name is shown as written, never as markup.
    expect(html).toContain("Consultation · Ann &lt;b&gt;&amp;&lt;/b&gt; &quot;Bo&#39;s&quot;</a>");
    expect(html).not.toContain(odd);
  });

  it("a busy day shows every booking, past the API's page of 100 (ten people with thirty each fit)", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const group = await createService(s.apiKey, { name: "Group", capacity: 150, durationMinutes: 30 });
    const made = await Promise.all(
      Array.from({ length: 150 }, (_, i) => book(s.apiKey, bookingBody(group.id, at(2, i % 2 ? "12:00" : "13:00")))),
    );
    // The list reads D1, which the calendar's write-behind fills: wait until the API lists them all.
    await eventually(async () => {
      const listed = await json(await api("GET", `/bookings?serviceId=${group.id}&limit=1`, { key: s.apiKey }));
      return listed.pagination.total === 150 ? true : undefined;
    }, "the 150 bookings in D1");
    const { html } = await page(`/office/day/${day()}`, cookie);
    const shown = new Set([...html.matchAll(/href="\/office\/bookings\/(bkg_\w+)"/g)].map((m) => m[1]));
    expect(made.filter((b) => !shown.has(b.id)).length).toBe(0);
    expect(html).not.toContain("are shown");
    // The 75 at noon (4 hours past the axis's 08:00, 30 minutes long) side by side: 40 lanes at most.
    expect(html).toContain('<li class="a4 d6 n40"><a href="/office/bookings/');
    expect(html).toContain('<li class="a4 d6 l39 n40"><a href="/office/bookings/');
  });

  it("a week with a clock change places each block at its own time on the axis, the day after the change too", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    expect((await api("PATCH", "/business", { key: s.apiKey, body: { timezone: "Europe/Berlin" } })).status).toBe(200);
    const [person] = s.providerIds as [string];
    const customer = await json(
      await api("POST", "/customers", { key: s.apiKey, body: { name: "Clock", email: "clock@example.com" } }),
    );
    // 10:00 in Berlin on the Saturday (UTC+1) and on the Sunday the clocks go forward (UTC+2).
    const before = await insertBooking(s.businessId, {
      serviceId: s.cut,
      customerId: customer.id,
      providerId: person,
      startTime: "2027-03-27T09:00:00.000Z",
    });
    const after = await insertBooking(s.businessId, {
      serviceId: s.cut,
      customerId: customer.id,
      providerId: person,
      startTime: "2027-03-28T08:00:00.000Z",
    });
    const { html } = await page(`/office/week/2027-03-28/${person}`, cookie);
    // Both 2 hours past the axis's 08:00, 6 steps long.
    expect(html).toContain(`<li class="a2 d6"><a href="/office/bookings/${before.id}">`);
    expect(html).toContain(`<li class="a2 d6"><a href="/office/bookings/${after.id}">`);
    // The day itself: its axis says the wall clock's hours, and the block sits at 10:00 on it.
    const day = (await page("/office/day/2027-03-28", cookie)).html;
    expect(day).toContain(
      '<div class="axis" aria-hidden="true"><div><span>8:00 AM</span><span>9:00 AM</span><span>10:00 AM</span>',
    );
    expect(day).toContain(`<li class="a2 d6"><a href="/office/bookings/${after.id}">`);
  });

  it("a date that is not one is a page saying so; the date picker goes to the day", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    for (const bad of ["2026-02-30", "tomorrow", "2026-1-01"]) {
      const res = await page(`/office/day/${bad}`, cookie);
      expect(res.status, bad).toBe(404);
      expect(res.res.headers.get("Content-Type")).toContain("text/html");
      expect(res.html).toContain("Dates look like 2026-12-24.");
    }
    expect((await page("/office/day?date=nope", cookie)).status).toBe(400);
    // A day is named as itself in any zone (UTC+14 here), never as the day an instant of it falls on elsewhere.
    const zoned = await api("PATCH", "/business", { key: s.apiKey, body: { timezone: "Pacific/Kiritimati" } });
    expect(zoned.status).toBe(200);
    const christmas = await page("/office/day/2026-12-24", cookie);
    expect(christmas.html).toContain("<h1>Thursday, December 24, 2026</h1>");
    expect(christmas.html).toContain("Times in Pacific/Kiritimati (GMT+14)");
    const picked = await office("GET", `/office/day?date=${day()}`, { cookie });
    expect(picked.status).toBe(303);
    expect(picked.headers.get("Location")).toBe(`/office/day/${day()}`);
  });

  it("speaks German to a browser that asks for it", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const { html } = await page(`/office/day/${day()}`, cookie, { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" });
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("Abmelden");
    expect(html).toContain("Nächster Tag");
    expect(html).toContain("Olivia Owner · Inhaber:in");
  });
});
