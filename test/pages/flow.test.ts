/** GET /book/{slug}: the steps of the booking flow as HTML, in the visitor's language and zone. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService } from "../support/api";
import { book, bookingBody, dayOf } from "../support/bookings";
import { enablePage, getPage, html, pageBusiness, pageWithProviders, textOf } from "../support/public";

const berlinMorning = {
  mon: [{ start: "09:00", end: "10:00" }],
  tue: [{ start: "09:00", end: "10:00" }],
  wed: [{ start: "09:00", end: "10:00" }],
  thu: [{ start: "09:00", end: "10:00" }],
  fri: [{ start: "09:00", end: "10:00" }],
  sat: [{ start: "09:00", end: "10:00" }],
  sun: [{ start: "09:00", end: "10:00" }],
};

/** The instant of `hh:mm` on `day` in Berlin. */
const berlin = (day: string, hhmm: string) => {
  const guess = Date.parse(`${day}T${hhmm}:00Z`);
  const offset = Number(
    new Intl.DateTimeFormat("en", { timeZone: "Europe/Berlin", timeZoneName: "shortOffset" })
      .formatToParts(guess)
      .find((p) => p.type === "timeZoneName")
      ?.value.replace("GMT", "") || 0,
  );
  return guess - offset * 3_600_000;
};

describe("the steps", () => {
  it("step 1 lists the services offered online, each a link to its next step, in English by default", async () => {
    const f = await pageBusiness({ name: "Massage", description: "Deep tissue." });
    await createService(f.apiKey, { name: "Office only" });
    const page = await html(await getPage(`/book/${f.slug}`));
    expect(page).toContain('<html lang="en"');
    expect(page).toContain("<h1>Choose a service</h1>");
    expect(textOf(page)).toContain("Massage Deep tissue. 30 min");
    expect(page).not.toContain("Office only");
    expect(page).toContain(`href="/book/${f.slug}?service=${f.serviceId}"`);
  });

  it("step 2 asks for a person where the service has several; with one, the dates come next", async () => {
    const several = await pageWithProviders(2);
    const page = await html(await getPage(`/book/${several.slug}?service=${several.serviceId}`));
    expect(page).toContain("Who would you like?");
    expect(page).toContain(`person=any`);
    for (const id of several.providerIds) expect(page).toContain(`person=${id}`);
    const one = await pageWithProviders(1);
    const dates = await html(await getPage(`/book/${one.slug}?service=${one.serviceId}`));
    expect(dates).toContain("Choose a date");
    expect(textOf(dates)).toContain("Stylist 0");
  });

  it("step 3 is a month whose days with free times are links; a closed day is not", async () => {
    const closed = dayOf(3);
    const f = await pageBusiness({ dateOverrides: [{ date: closed, intervals: [] }] });
    const open = dayOf(2);
    const month = open.slice(0, 7);
    const page = await html(await getPage(`/book/${f.slug}?service=${f.serviceId}&month=${month}&tz=UTC`));
    expect(page).toContain(`day=${open}`);
    if (closed.slice(0, 7) === month) expect(page).not.toContain(`day=${closed}`);
    expect(page).toMatch(/aria-label="[^"]+: times available"/);
  });

  it("step 4 lists a Berlin service's times in the visitor's New York time, each with its full date for screen readers", async () => {
    const f = await pageBusiness({ timezone: "Europe/Berlin", weeklySchedule: berlinMorning });
    const day = dayOf(4);
    const first = berlin(day, "09:00");
    const nyDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(first);
    const page = await html(await getPage(`/book/${f.slug}?service=${f.serviceId}&day=${nyDay}&tz=America/New_York`));
    const time = (ms: number) =>
      new Intl.DateTimeFormat("en", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" }).format(ms);
    const date = new Intl.DateTimeFormat("en", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "America/New_York",
    }).format(first);
    expect(page).toContain(`value="${new Date(first).toISOString()}"`);
    const offset = new Intl.DateTimeFormat("en", { timeZone: "America/New_York", timeZoneName: "shortOffset" })
      .formatToParts(first)
      .find((p) => p.type === "timeZoneName")?.value;
    // Read aloud as one phrase: no brackets inside brackets.
    expect(textOf(page)).toContain(`${time(first)} on ${date}, America/New York (${offset}) time`);
    expect(page).not.toContain(") time)");
    expect(textOf(page)).toContain(`${time(first + 30 * 60_000)} on ${date}`);
    expect(textOf(page)).toContain("The appointment takes place in Europe/Berlin");
    expect(page).toContain('data-times="1"');
    expect(page).not.toContain("data-tz-auto");
  });

  it("the step bar keeps its six steps from the first to the last, whether or not the service asks for a person", async () => {
    const steps = (page: string) => [...page.matchAll(/<li data-n="(\d)"/g)].map((m) => m[1]).join("");
    const several = await pageWithProviders(2);
    const one = await pageWithProviders(1);
    const day = dayOf(3);
    for (const path of [
      `/book/${several.slug}`,
      `/book/${several.slug}?service=${several.serviceId}`,
      `/book/${several.slug}?service=${several.serviceId}&person=any&tz=UTC`,
      `/book/${one.slug}?service=${one.serviceId}&tz=UTC`,
      `/book/${one.slug}?service=${one.serviceId}&day=${day}&tz=UTC`,
    ])
      expect(steps(await html(await getPage(path))), path).toBe("123456");
    // Where nobody is to be picked, the person is settled with the service: that step is past.
    const dates = await html(await getPage(`/book/${one.slug}?service=${one.serviceId}&tz=UTC`));
    expect(dates).toMatch(/<li data-n="2" class="past">Person<\/li>/);
  });

  it("a time booked already is not offered", async () => {
    const f = await pageBusiness();
    const day = dayOf(3);
    await book(f.apiKey, bookingBody(f.serviceId, `${day}T10:00:00Z`));
    const page = await html(await getPage(`/book/${f.slug}?service=${f.serviceId}&day=${day}&tz=UTC`));
    expect(page).toContain(`value="${day}T09:30:00.000Z"`);
    expect(page).not.toContain(`value="${day}T10:00:00.000Z"`);
  });
});

describe("languages", () => {
  it("German by ?lang=de, by Accept-Language, or as the business's language; dates through Intl", async () => {
    const f = await pageBusiness();
    for (const [path, headers] of [
      [`/book/${f.slug}?lang=de`, {}],
      [`/book/${f.slug}`, { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" }],
    ] as const) {
      const page = await html(await getPage(path, headers));
      expect(page).toContain('<html lang="de"');
      expect(page).toContain("Leistung wählen");
    }
    await api("PATCH", "/business", { key: f.apiKey, body: { locale: "de" } });
    const day = dayOf(3);
    const page = await html(await getPage(`/book/${f.slug}?service=${f.serviceId}&day=${day}&tz=UTC`));
    const date = new Intl.DateTimeFormat("de", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(Date.parse(day));
    expect(textOf(page)).toContain(date);
    expect(textOf(page)).toContain("Uhrzeit wählen");
    expect(page).toContain(`href="/book/${f.slug}?service=${f.serviceId}&amp;day=${day}&amp;tz=UTC&amp;lang=en"`);
  });
});

describe("what is not there", () => {
  it("an unknown slug, a disabled page and a service not offered are HTML 404 pages", async () => {
    const f = await pageBusiness();
    const offline = await createService(f.apiKey, { name: "Offline" });
    const { apiKey } = await createAccount();
    const disabled = await enablePage(apiKey, { bookingPage: { enabled: false } });
    for (const path of [
      "/book/no-such-page",
      `/book/${disabled}`,
      `/book/${f.slug}?service=${offline.id}`,
      `/book/${f.slug}/nothing/here`,
      "/book/",
    ]) {
      const page = await html(await getPage(path), 404);
      expect(page).toContain("Page not found");
      expect(page).not.toMatch(/svc_|biz_|Error:|at .*\.ts/);
    }
  });

  it("a wrong date, month or zone is a 422 page that says what to use", async () => {
    const f = await pageBusiness();
    const base = `/book/${f.slug}?service=${f.serviceId}`;
    expect(textOf(await html(await getPage(`${base}&day=2026-02-30`), 422))).toContain(
      "Use a date such as 2026-12-01.",
    );
    expect(textOf(await html(await getPage(`${base}&month=12-2026`), 422))).toContain("Use a month such as 2026-12.");
    expect(textOf(await html(await getPage(`${base}&tz=Mars/Olympus`), 422))).toContain(
      "Choose a time zone from the list",
    );
    expect(textOf(await html(await getPage(`${base}&person=prv_nobody`), 422))).toContain(
      "Choose one of the people listed.",
    );
  });
});
