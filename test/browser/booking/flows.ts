/** Booking through the page as a visitor does: by mouse, by keyboard, with or without JavaScript. */
import type { Page } from "playwright-core";
import { check } from "../harness.ts";
import { arrive, demoApi, record, type Weight, weigher } from "./tools.ts";

/** What a flow booked: the slot clicked (its UTC instant and its label) and the booking made of it. */
export type Booked = { bookingId: string; start: string; label: string; manageUrl: string; email: string; url: string };

/** The person step's "anyone available". */
const ANYONE = "a[href*='person=any']";

type FlowOptions = {
  origin: string;
  /** The service's name as the page lists it. */
  service: string;
  /** Its id (the keyboard finds its link by it). */
  serviceId?: string;
  /** Names of the screenshots and audits: `<prefix>-<step>`. */
  prefix: string;
  /** The page's address to start from (the demo's page unless told). */
  start?: string;
  /** Filled into the details form. */
  name?: string;
  /** Collected per step, when given. */
  weights?: Weight[];
  /** Which of the day's free times to take (0: the first). */
  slot?: number;
  /** Check at every step that nothing is wider than the viewport (a phone's). */
  narrow?: boolean;
  /** Where pages are audited when `page` runs no script. */
  auditor?: Page;
};

/**
 * Books the first free time of the first open day through every step (service, anyone, date,
 * time, details, confirmation), auditing and photographing each, and checks that the booking
 * stored is the slot clicked.
 */
export async function bookByMouse(page: Page, options: FlowOptions): Promise<Booked> {
  const { origin, prefix } = options;
  const weights = weigher(page);
  const step = async (name: string, go: () => Promise<void>) => {
    weights.start();
    await go();
    await page.waitForLoadState("load");
    if (options.weights) options.weights.push(await weights.weigh(name));
    if (options.narrow) {
      const [wide, viewport] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      check(
        `${prefix}-${name}: nothing wider than the ${viewport}-px viewport`,
        (wide ?? 0) <= (viewport ?? 0),
        `${wide} px`,
      );
    }
    await record(page, `${prefix}-${name}`, options.auditor);
  };
  await step("1-services", async () => {
    await page.goto(options.start ?? `${origin}/book/demo-salon`);
  });
  await step("2-person-or-date", () =>
    arrive(
      page,
      () => page.getByRole("link", { name: new RegExp(`^${options.service}`) }).click(),
      page.locator(`a.day, ${ANYONE}`),
      /[?&]service=/,
    ),
  );
  const anyone = page.locator(ANYONE);
  if (await anyone.count())
    await step("3-date", () => arrive(page, () => anyone.click(), page.locator("a.day"), /[?&]person=any/));
  await step("4-times", () =>
    arrive(page, () => page.locator("a.day").first().click(), page.locator("button.slot"), /[?&]day=/),
  );
  if (options.narrow) {
    // The previous/next day pair stays on one line; "Next day" never wraps onto a line of its own.
    const tops = await page.$$eval(".daynav > *", (items) => items.map((item) => item.getBoundingClientRect().top));
    const [previous, , next] = tops;
    check(`${prefix}-4-times: "Next day" on the line of "Previous day" (${tops.join(", ")})`, previous === next);
  }
  const slot = page.locator("button.slot").nth(options.slot ?? 0);
  const start = (await slot.getAttribute("value")) ?? "";
  const label = ((await slot.innerText()).split("\n")[0] ?? "").trim();
  await step("5-details", () => arrive(page, () => slot.click(), page.locator("#f-name"), /\/details\?/));
  const email = `${crypto.randomUUID().slice(0, 8)}@example.com`;
  await page.fill("#f-name", options.name ?? "Ada Lovelace");
  await page.fill("#f-email", email);
  await step("6-confirmation", () =>
    arrive(
      page,
      () => page.locator("form button[type=submit]").last().click(),
      page.locator("[data-booking-id]"),
      /\/booked\//,
    ),
  );
  return confirmation(page, origin, { start, label, email });
}

/** Reads the confirmation page and checks the booking it names against the API. */
export async function confirmation(
  page: Page,
  origin: string,
  chosen: { start: string; label: string; email: string },
): Promise<Booked> {
  const bookingId = (await page.locator("[data-booking-id]").getAttribute("data-booking-id")) ?? "";
  const manageUrl = (await page.locator("a.btn[href*='/api/v1/manage/']").getAttribute("href")) ?? "";
  const stored = await demoApi(origin, "GET", `/bookings/${bookingId}`);
  check(
    `the booking stored is the time clicked (${chosen.label} → ${chosen.start})`,
    stored.status === 200 && stored.body.startTime === chosen.start && stored.body.customerEmail === chosen.email,
    JSON.stringify(stored.body),
  );
  return { bookingId, manageUrl, url: page.url(), ...chosen };
}

/** Presses Tab until the focused element matches `selector` (at most `limit` presses); answers whether it did. */
export async function tabTo(page: Page, selector: string, limit = 80): Promise<boolean> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}

/** Whether the focused element shows a focus ring (an outline of at least 2 px). */
export const focusVisible = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2;
  });

/** The same flow with the keyboard alone: Tab to each control, Enter or Space to use it, typing into fields. */
export async function bookByKeyboard(page: Page, options: FlowOptions): Promise<Booked> {
  const { origin, prefix } = options;
  await page.goto(options.start ?? `${origin}/book/demo-salon`);
  /** Tabs to `selector`, uses it with `key`, and waits for the page it leads to (`shows`: an element of it). */
  const press = async (selector: string, key: "Enter" | "Space", what: string, shows: string, url: RegExp) => {
    const reached = await tabTo(page, selector);
    check(`keyboard: Tab reaches ${what}, and it shows its focus`, reached && (await focusVisible(page)));
    await arrive(page, () => page.keyboard.press(key), page.locator(shows), url);
  };
  await press(
    `a.choice[href*='service=${options.serviceId}']`,
    "Enter",
    `the service ${options.service}`,
    `a.day, ${ANYONE}`,
    /[?&]service=/,
  );
  if (await page.locator(ANYONE).count()) await press(ANYONE, "Enter", "“anyone available”", "a.day", /[?&]person=any/);
  await press("a.day", "Enter", "the first open day", "button.slot", /[?&]day=/);
  const first = page.locator("button.slot").first();
  const start = (await first.getAttribute("value")) ?? "";
  const label = ((await first.innerText()).split("\n")[0] ?? "").trim();
  await press("button.slot", "Space", `the time ${label}`, "#f-name", /\/details\?/);
  await record(page, `${prefix}-details`);
  const email = `${crypto.randomUUID().slice(0, 8)}@example.com`;
  check("keyboard: Tab reaches the name field", await tabTo(page, "#f-name"));
  await page.keyboard.type("Alan Turing");
  check("keyboard: Tab goes on to the e-mail field", await tabTo(page, "#f-email", 2));
  await page.keyboard.type(email);
  await press("form button[type=submit]", "Enter", "“Confirm booking”", "[data-booking-id]", /\/booked\//);
  await record(page, `${prefix}-confirmation`);
  return confirmation(page, origin, { start, label, email });
}
