/**
 * The office browser test's tools: signing a demo member in through their printed link, free
 * times of the demo's Haircut, a booking made with the demo key, and the office's screenshots.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { demoApi, demoService } from "../booking/tools.ts";
import { artifactsDir } from "../harness.ts";

/** A full-page screenshot as .ci/artifacts/office-<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `office-${name}.png`), fullPage: true });
}

/** A new context signed in through `link` (the link's page, its button): answers it on the day page. */
export async function signedIn(browser: Browser, link: string, options: Parameters<Browser["newContext"]>[0] = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/office$/);
  return { context, page };
}

/** Another context carrying `from`'s session cookie (a sign-in link is good once). */
export async function sameSession(
  browser: Browser,
  from: BrowserContext,
  options: Parameters<Browser["newContext"]>[0],
) {
  const context = await browser.newContext(options);
  await context.addCookies(await from.cookies());
  return context;
}

/** The demo business's zone. */
export async function businessZone(origin: string): Promise<string> {
  return (await demoApi(origin, "GET", "/business")).body.timezone as string;
}

/**
 * Books the demo's Haircut with the demo key at a free time of the day after tomorrow or later
 * (Sam Rivera's, if `providerId` is given): answers the booking and its day in the business's zone.
 */
export async function bookHaircut(origin: string, customerName: string, providerId?: string) {
  const service = await demoService(origin, "Haircut");
  // From the start of a day two days ahead, not from this hour: later in the day the first free
  // time can be a day's last, and the next booking would fall on the day after.
  const day = new Date(Date.now() + 2 * 86_400_000);
  day.setUTCHours(0, 0, 0, 0);
  const from = day.toISOString();
  const to = new Date(day.getTime() + 7 * 86_400_000).toISOString();
  const query = `from=${from}&to=${to}${providerId ? `&providerId=${providerId}` : ""}`;
  const times = await demoApi(origin, "GET", `/services/${service.id}/availability?${query}`);
  const slot = (times.body.slots as { startTime: string; endTime: string; bookable: boolean }[]).find(
    (s) => s.bookable,
  );
  if (!slot) throw new Error(`no free Haircut time: ${JSON.stringify(times.body).slice(0, 300)}`);
  const body = {
    serviceId: service.id,
    startTime: slot.startTime,
    endTime: slot.endTime,
    customerName,
    customerEmail: `${customerName.toLowerCase().replaceAll(" ", ".")}@example.com`,
    ...(providerId ? { providerId } : {}),
  };
  const made = await demoApi(origin, "POST", "/bookings", body);
  if (made.status !== 201) throw new Error(`booking failed: ${made.status} ${JSON.stringify(made.body)}`);
  const zone = await businessZone(origin);
  const local = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(Date.parse(slot.startTime));
  return { booking: made.body as { id: string; startTime: string }, day: local };
}

/** Whether the page scrolls sideways (it must not, at any width). */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** What a page of the office weighs: its HTML, stylesheets and scripts (raw), and its scripts gzip'd. */
export async function weightOf(page: Page) {
  const { gzipSync } = await import("node:zlib");
  const html = (await (await page.request.get(page.url())).body()).length;
  const assets = await page.evaluate(() => ({
    css: [...document.querySelectorAll("link[rel=stylesheet]")].map((l) => (l as HTMLLinkElement).href),
    js: [...document.querySelectorAll("script[src]")].map((s) => (s as HTMLScriptElement).src),
  }));
  const bodies = async (urls: string[]) => Promise.all(urls.map(async (url) => (await page.request.get(url)).body()));
  const css = await bodies(assets.css);
  const js = await bodies(assets.js);
  const sum = (list: Buffer[]) => list.reduce((n, b) => n + b.length, 0);
  return { total: html + sum(css) + sum(js), jsGz: js.reduce((n, b) => n + gzipSync(b).length, 0), js: sum(js) };
}

/**
 * Watches a context for script errors and CSP violations. A poll cut short by a navigation
 * (`net::ERR_ABORTED` of the live update's reads) is not one.
 */
export function watchOffice(context: BrowserContext) {
  const problems: string[] = [];
  context.on("requestfailed", (request) => {
    const aborted = request.failure()?.errorText === "net::ERR_ABORTED" && /\/(version|columns)$/.test(request.url());
    if (!aborted) problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  const attach = (page: Page) => {
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  };
  context.pages().forEach(attach);
  context.on("page", attach);
  return problems;
}

type Captured = { to: string[]; messageId: string; text?: string };

/**
 * A new sign-in link for `email`, asked for at the sign-in page and read from the e-mail the dev
 * server captured (docs/emails.md, "Locally"): for a second sign-in of a demo member, whose
 * printed link is good once.
 */
export async function freshSignInLink(origin: string, email: string): Promise<string> {
  const explorer = `${origin}/cdn-cgi/local/explorer/api/local/email/sending`;
  const listed = async () =>
    ((await (await fetch(`${explorer}?per_page=100`)).json()) as { result: Captured[] }).result;
  const before = new Set((await listed()).map((m) => m.messageId));
  const asked = await fetch(`${origin}/office/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ email }),
  });
  if (asked.status !== 200) throw new Error(`asking for a sign-in link answered ${asked.status}`);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const mail = (await listed()).find((m) => m.to.includes(email) && !before.has(m.messageId));
    if (mail) {
      const detail = (await (await fetch(`${explorer}?email_id=${encodeURIComponent(mail.messageId)}`)).json()) as {
        result: Captured;
      };
      const token = /token=([^\s"<]+)/.exec(detail.result.text ?? "")?.[1];
      if (token) return `${origin}/office/sign-in/link?token=${token}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`no sign-in e-mail to ${email} within 30 s`);
}

/**
 * Whether `locator` is visible within 10 s: what a check after a click or a navigation waits for
 * (Playwright's `isVisible` answers at once, before a page that is still loading has it).
 */
export const shown = (locator: Locator, timeout = 10_000): Promise<boolean> =>
  locator.waitFor({ state: "visible", timeout }).then(
    () => true,
    () => false,
  );
