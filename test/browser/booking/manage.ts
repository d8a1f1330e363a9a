/**
 * The manage page as a customer opens it: a booking two months ahead, opened in New York with
 * JavaScript and without it. (Moving, cancelling and the policy window: edges.ts.)
 */
import type { Browser } from "playwright-core";
import { check } from "../harness.ts";
import { arrive, demoApi, demoService, record, watch } from "./tools.ts";

const NEW_YORK = "America/New_York";
const BERLIN = "Europe/Berlin";

/** How the page writes an instant in `timeZone`: its date and time, its date, its month. */
const written = (instant: string, timeZone: string) => {
  const as = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat("en", { ...options, timeZone }).format(Date.parse(instant));
  const date = { weekday: "long", day: "numeric", month: "long", year: "numeric" } as const;
  return {
    dateTime: as({ ...date, hour: "numeric", minute: "2-digit" }),
    date: as(date),
    month: as({ month: "long", year: "numeric" }),
  };
};

/** A free Haircut about two months ahead with another free an hour later (both UTC instants). */
async function farAhead(origin: string, serviceId: string): Promise<{ start: string; later: string }> {
  const from = new Date(Date.now() + 60 * 86_400_000).toISOString();
  const to = new Date(Date.now() + 65 * 86_400_000).toISOString();
  const res = await fetch(
    `${origin}/api/v1/public/demo-salon/services/${serviceId}/availability?from=${from}&to=${to}`,
  );
  const { slots } = (await res.json()) as { slots: { startTime: string; bookable: boolean }[] };
  const free = new Set(slots.filter((s) => s.bookable).map((s) => s.startTime));
  const start = [...free].find((s) => free.has(new Date(Date.parse(s) + 3_600_000).toISOString()));
  if (!start) throw new Error("no free Haircut two months ahead with another an hour later");
  return { start, later: new Date(Date.parse(start) + 3_600_000).toISOString() };
}

/**
 * A booking two months ahead: without JavaScript its page is in Berlin time and its list of zones
 * brings New York time; with JavaScript in New York the page is reloaded in New York time, names
 * Berlin's too, and opens on the booked day's times, where an hour later is one click.
 */
export async function manageOpened(browser: Browser, origin: string): Promise<void> {
  const haircut = await demoService(origin, "Haircut");
  const { start, later } = await farAhead(origin, haircut.id);
  const made = await demoApi(origin, "POST", "/bookings", {
    serviceId: haircut.id,
    startTime: start,
    endTime: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
    customerName: "Far Planner",
    customerEmail: "far@example.com",
  });
  check("a Haircut booked two months ahead through the API", made.status === 201, JSON.stringify(made.body));
  const manageUrl: string = made.body.manageUrl;
  const berlin = written(start, BERLIN);
  const newYork = written(start, NEW_YORK);

  const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const scripted = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: BERLIN });
  const auditor = await scripted.newPage();
  const page = await plain.newPage();
  await page.goto(manageUrl);
  const bare = await page.locator("aside").innerText();
  check(`without JavaScript the booking is in Berlin time (${berlin.dateTime})`, bare.includes(berlin.dateTime), bare);
  await arrive(
    page,
    () => page.getByRole("link", { name: "Change time zone" }).click(),
    page.locator("#tz"),
    /[?&]choose=zone/,
  );
  await record(page, "manage-zones", auditor);
  await page.selectOption("#tz", NEW_YORK);
  await arrive(
    page,
    () => page.getByRole("button", { name: "Show times" }).click(),
    page.locator("button.slot"),
    /[?&]tz=America%2FNew_York/,
  );
  const chosen = await page.locator("aside").innerText();
  check(
    `its list of zones brings the booking in New York time (${newYork.dateTime}), and Berlin's beside it`,
    chosen.includes(newYork.dateTime) && chosen.includes(`Local time there: ${berlin.dateTime}`),
    chosen,
  );
  await record(page, "manage-nojs-new-york", auditor);
  await plain.close();
  await scripted.close();

  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: NEW_YORK,
    locale: "en-US",
  });
  const quiet = watch(context);
  const shown = await context.newPage();
  await shown.goto(manageUrl);
  const reloaded = await shown.waitForURL(/[?&]tz=America%2FNew_York/).then(
    () => true,
    () => false,
  );
  check("opened without a zone, the page's script reloads it in the visitor's", reloaded, shown.url());
  await shown.locator("button.slot").first().waitFor();
  const facts = await shown.locator("aside").innerText();
  check(
    `with JavaScript in New York the booking is in New York time (${newYork.dateTime}), and Berlin's beside it`,
    facts.includes(newYork.dateTime) && facts.includes(`Local time there: ${berlin.dateTime}`),
    facts,
  );
  const move = await shown.locator("section[aria-labelledby=move]").innerText();
  check(
    `it opens on the booked day's month (${newYork.month}) with that day's free times, an hour later among them`,
    move.includes(newYork.month) &&
      move.includes(newYork.date) &&
      (await shown.locator(`button.slot[value="${later}"]`).count()) === 1,
    move.slice(0, 300),
  );
  await record(shown, "manage-opened");
  await arrive(
    shown,
    () => shown.locator(`button.slot[value="${later}"]`).click(),
    shown.getByText("Your booking was moved."),
    /[?&]moved=1/,
  );
  const moved = await demoApi(origin, "GET", `/bookings/${made.body.id}`);
  check("one click moved it an hour later", moved.body.startTime === later, JSON.stringify(moved.body));
  quiet.expectQuiet("a manage link opened two months ahead");
  await context.close();
}
