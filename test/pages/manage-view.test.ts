/**
 * What the manage page shows when it opens: the booking in the visitor's zone and the service's
 * (the script supplies the visitor's, a list of zones does without it), and the booked day's
 * month with that day's free times, so a move "a bit later" is one click.
 */
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { bookWithLink, clinic } from "../support/manage-links";
import { getPage, html, postForm, textOf } from "../support/public";

const DAY = 86_400_000;

/** How the page writes an instant's date and time in `timeZone`. */
const dateTime = (instant: string, timeZone: string) =>
  new Intl.DateTimeFormat("en", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  }).format(Date.parse(instant));

/** A Europe/Berlin clinic's booking at 12:00 UTC `days` from now, with its page's path from the origin. */
async function bookedIn(days: number) {
  const c = await clinic({ timezone: "Europe/Berlin" });
  await api("PATCH", "/business", { key: c.apiKey, body: { contactEmail: "desk@clinic.example" } });
  const start = `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T12:00:00.000Z`;
  const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, start, { customerName: "Grace Hopper" });
  return { ...c, booking, start, page: `/api/v1${path}` };
}

/** The `href` of the link whose text is `text`, entities decoded. */
function hrefOf(page: string, text: string): string {
  const found = [...page.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].find(([, , t]) => t?.trim() === text);
  expect(found, `a link "${text}"`).toBeDefined();
  return (found?.[1] ?? "").replaceAll("&amp;", "&");
}

describe("the visitor's zone", () => {
  it("opened without a zone, the page has the script reload it in the visitor's; in that zone it names both", async () => {
    const l = await bookedIn(3);
    const bare = await html(await getPage(l.page));
    expect(bare).toMatch(/<html[^>]* data-tz="Europe\/Berlin" data-tz-auto="1" data-times="1"/);
    const newYork = textOf(await html(await getPage(`${l.page}?tz=America/New_York`)));
    expect(newYork).toContain(dateTime(l.start, "America/New_York"));
    expect(newYork).toContain(`Local time there: ${dateTime(l.start, "Europe/Berlin")} (Europe/Berlin`);
  });

  it("without JavaScript the page links to a list of zones, which comes back to the booking in the zone chosen", async () => {
    const l = await bookedIn(3);
    const page = await html(await getPage(`${l.page}?tz=Europe/Berlin&lang=en`));
    const res = await getPage(hrefOf(page, "Change time zone"));
    expect(res.headers.get("X-Robots-Tag")).toContain("noindex");
    const zones = await html(res);
    expect(zones).toContain(`<form class="zone" method="get" action="${l.page}">`);
    expect(zones).toContain('<input type="hidden" name="lang" value="en"/>');
    expect(zones).toContain('<option value="Europe/Berlin" selected>');
    expect(zones).toContain('<option value="Asia/Tokyo">');
    expect(zones).not.toMatch(/name="choose"/);
    // What the form sends: the same link, in the zone chosen.
    const tokyo = textOf(await html(await getPage(`${l.page}?lang=en&tz=Asia%2FTokyo`)));
    expect(tokyo).toContain(dateTime(l.start, "Asia/Tokyo"));
    expect(tokyo).toContain(`Local time there: ${dateTime(l.start, "Europe/Berlin")}`);
  });

  it("a page answered to a form without a zone is not reloaded by the script (a form's address has no page)", async () => {
    const l = await bookedIn(3);
    const refused = await html(await postForm(`${l.page}/reschedule`, { start: "later" }), 422);
    expect(refused).toContain("Choose a time to move to.");
    expect(refused).not.toContain("data-times");
  });

  it("an unknown zone on the list's address selects the service's, and says so", async () => {
    const l = await bookedIn(3);
    const zones = await html(await getPage(`${l.page}?choose=zone&tz=Mars/Olympus`));
    expect(zones).toContain('<option value="Europe/Berlin" selected>');
    expect(textOf(zones)).toContain("Choose a time zone from the list");
  });
});

describe("the booked day", () => {
  it("opens on the booked day's month with that day's free times, so an hour later is one click", async () => {
    const l = await bookedIn(62);
    const page = await html(await getPage(`${l.page}?tz=UTC`));
    const month = new Intl.DateTimeFormat("en", { month: "long", year: "numeric", timeZone: "UTC" }).format(
      Date.parse(l.start),
    );
    expect(page).toContain(`<h3 id="month-title">${month}</h3>`);
    const hourLater = new Date(Date.parse(l.start) + 3_600_000).toISOString();
    expect(page).toContain(`value="${hourLater}"`);
    expect(page).not.toContain(`value="${l.start}"`);
    const moved = await postForm(`${l.page}/reschedule`, { start: hourLater, tz: "UTC", lang: "en" });
    expect(moved.status).toBe(303);
  });

  it("a month named in the address is shown as asked, with no day's times", async () => {
    const l = await bookedIn(62);
    const thisMonth = new Date().toISOString().slice(0, 7);
    const page = await html(await getPage(`${l.page}?tz=UTC&month=${thisMonth}`));
    const title = new Intl.DateTimeFormat("en", { month: "long", year: "numeric", timeZone: "UTC" }).format(
      Date.parse(`${thisMonth}-15T12:00:00Z`),
    );
    expect(page).toContain(`<h3 id="month-title">${title}</h3>`);
    expect(page).not.toContain('class="slot"');
  });
});
