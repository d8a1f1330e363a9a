/**
 * The visitors of the booking test: with JavaScript in New York, without it, by keyboard, in
 * German, on a phone; and the zone switch. Each books through the real page on `npm run dev`.
 */
import type { Browser } from "playwright-core";
import { check, log } from "../harness.ts";
import { type Booked, bookByKeyboard, bookByMouse } from "./flows.ts";
import { arrive, daysWithTimes, demoService, record, type Weight, watch } from "./tools.ts";

const label = (start: string, timeZone: string, locale = "en") =>
  new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone }).format(Date.parse(start));

/** A visitor in New York with JavaScript: the page finds their zone; they book a Berlin service's time. */
export async function newYorkVisitor(browser: Browser, origin: string, weights: Weight[]): Promise<Booked> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: "America/New_York",
    locale: "en-US",
  });
  const quiet = watch(context);
  const page = await context.newPage();
  const haircut = await demoService(origin, "Haircut");
  check("the demo's Haircut is a Europe/Berlin service", haircut.timezone === "Europe/Berlin", haircut.timezone);
  const booked = await bookByMouse(page, { origin, service: "Haircut", prefix: "desktop", weights });
  check(
    "the script put the visitor's zone (America/New_York) into the flow",
    booked.url.includes("tz=America%2FNew_York"),
    booked.url,
  );
  check(
    `the time clicked was shown in New York time (${booked.label})`,
    booked.label === label(booked.start, "America/New_York"),
    `${booked.label} vs ${label(booked.start, "America/New_York")}`,
  );
  check("the confirmation names both zones", (await page.locator("dl.sum").innerText()).includes("Europe/Berlin"));
  quiet.expectQuiet("New York visitor");
  await context.close();
  return booked;
}

/** Without JavaScript: forms and links alone, times in the service's zone. */
export async function withoutJavaScript(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const quiet = watch(context);
  const page = await context.newPage();
  const scripted = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const auditor = await scripted.newPage();
  const booked = await bookByMouse(page, { origin, service: "Beard trim", prefix: "nojs", auditor });
  await scripted.close();
  check(
    `without JavaScript the times are the service's own (Berlin: ${booked.label})`,
    booked.label === label(booked.start, "Europe/Berlin"),
    `${booked.label} vs ${label(booked.start, "Europe/Berlin")}`,
  );
  quiet.expectQuiet("without JavaScript");
  await context.close();
}

/** The keyboard alone, every step. */
export async function keyboardOnly(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin" });
  const quiet = watch(context);
  const haircut = await demoService(origin, "Haircut");
  await bookByKeyboard(await context.newPage(), {
    origin,
    service: "Haircut",
    serviceId: haircut.id,
    prefix: "keyboard",
  });
  quiet.expectQuiet("keyboard only");
  await context.close();
}

/** A German browser: the page speaks German, dates through Intl. */
export async function germanVisitor(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: "de-DE",
    timezoneId: "Europe/Berlin",
  });
  const quiet = watch(context);
  const page = await context.newPage();
  const booked = await bookByMouse(page, { origin, service: "Haircut", prefix: "de", name: "Jürgen Müller" });
  check('the page is German (lang="de")', (await page.getAttribute("html", "lang")) === "de");
  const text = await page.locator("main").innerText();
  const date = new Intl.DateTimeFormat("de", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Europe/Berlin",
  }).format(Date.parse(booked.start));
  check(
    "the German confirmation says so, with the German date",
    text.includes("Ihr Termin ist gebucht") && text.includes(date),
    text.slice(0, 300),
  );
  quiet.expectQuiet("German visitor");
  await context.close();
}

/** A 375-px phone: every step fits, touch targets included. */
export async function phoneVisitor(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    timezoneId: "Europe/Berlin",
  });
  const quiet = watch(context);
  await bookByMouse(await context.newPage(), { origin, service: "Group yoga class", prefix: "phone", narrow: true });
  quiet.expectQuiet("phone");
  await context.close();
}

/** The visitor switches zone: the same date's times, in Tokyo time. */
export async function zoneSwitch(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "America/New_York" });
  const page = await context.newPage();
  const haircut = await demoService(origin, "Haircut");
  const [day] = (await daysWithTimes(origin, haircut.id, "Asia/Tokyo")).slice(-1);
  await page.goto(`${origin}/book/demo-salon?service=${haircut.id}&person=any&day=${day}&tz=America/New_York`);
  await arrive(
    page,
    () => page.getByRole("link", { name: "Change time zone" }).click(),
    page.locator("#tz"),
    /\/zone\?/,
  );
  await record(page, "zone");
  await page.selectOption("#tz", "Asia/Tokyo");
  await arrive(
    page,
    () => page.getByRole("button", { name: "Show times" }).click(),
    page.locator("button.slot"),
    /tz=Asia%2FTokyo/,
  );
  const first = page.locator("button.slot").first();
  const value = (await first.getAttribute("value")) ?? "";
  const shown = ((await first.innerText()).split("\n")[0] ?? "").trim();
  check(
    "the zone switch shows the times in Tokyo time",
    page.url().includes("tz=Asia%2FTokyo") && shown === label(value, "Asia/Tokyo"),
    `${page.url()} ${shown}`,
  );
  await context.close();
}

/** From navigation to the day's times on screen, three times; printed, never asserted. */
export async function timeToTimes(browser: Browser, origin: string): Promise<void> {
  const haircut = await demoService(origin, "Haircut");
  const [day] = (await daysWithTimes(origin, haircut.id, "America/New_York")).slice(-1);
  const url = `${origin}/book/demo-salon?service=${haircut.id}&person=any&day=${day}&tz=America/New_York`;
  const runs: { total: number; fcp: number }[] = [];
  for (let i = 0; i < 4; i++) {
    // A fresh context each time: nothing cached, as a first visit.
    const context = await browser.newContext({ timezoneId: "America/New_York" });
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url, { waitUntil: "commit" });
    await page.locator("button.slot").first().waitFor({ state: "visible" });
    const total = performance.now() - started;
    const fcp = await page.evaluate(
      () =>
        (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)
          ?.domContentLoadedEventEnd ?? -1,
    );
    if (i > 0) runs.push({ total, fcp });
    await context.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? -1;
  log(
    `navigation to the day's times visible (first visit, nothing cached; median of 3 after a warm-up): ${Math.round(median(runs.map((r) => r.total)))} ms; DOMContentLoaded ${Math.round(median(runs.map((r) => r.fcp)))} ms (runs: ${runs.map((r) => Math.round(r.total)).join(", ")} ms)`,
  );
}
