/**
 * The phone-in and the customers' pages in the browser (office.browser.ts runs it): the owner
 * books a phone-in with JavaScript off — Haircut, Sam Rivera, a free time, a new customer,
 * notes — and the API shows the booking; then finds that customer by the search and opens their
 * page. axe-core audits each page (with JavaScript on, in the same session), 375 px needs no
 * sideways scrolling, screenshots as .ci/artifacts/office-new-booking-*.png and office-customer*.png.
 */
import type { Browser } from "playwright-core";
import { audit, demoApi } from "../booking/tools.ts";
import { check, part } from "../harness.ts";
import { sameSession, scrollsSideways, shot, shown, signedIn } from "./tools.ts";

/** The phone-in without JavaScript and the customer search, the owner signed in through `link`. */
export async function phoneIn(browser: Browser, link: string) {
  const origin = new URL(link).origin;
  const owner = await signedIn(browser, link, { viewport: { width: 1280, height: 900 } });
  const sam = (await demoApi(origin, "GET", "/providers?limit=100")).body.data.find(
    (p: { name: string }) => p.name === "Sam Rivera",
  ) as { id: string };
  const visited: [string, string][] = [];
  const customerName = `Phone In ${Date.now() % 100000}`;

  await part("a phone-in without JavaScript", async () => {
    const context = await sameSession(browser, owner.context, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${origin}/office`);
    await page.getByRole("link", { name: "New booking" }).click();
    visited.push(["the phone-in's services", page.url()]);
    await shot(page, "new-booking-service");
    await page.getByRole("link", { name: /Haircut/ }).click();
    visited.push(["the phone-in's people", page.url()]);
    await page.getByRole("link", { name: "Sam Rivera" }).click();
    // A day with a free time of Sam's: the first one the API lists from the day after tomorrow.
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const service = new URL(page.url()).searchParams.get("service");
    const times = await demoApi(
      origin,
      "GET",
      `/services/${service}/availability?from=${from}&providerId=${sam.id}&to=${new Date(Date.now() + 9 * 86_400_000).toISOString()}`,
    );
    const slot = (times.body.slots as { startTime: string; bookable: boolean }[]).find((s) => s.bookable);
    const zone = (await demoApi(origin, "GET", "/business")).body.timezone as string;
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(Date.parse(slot?.startTime ?? from));
    await page.getByLabel("Day").fill(day);
    await page.getByRole("button", { name: "Show free times" }).click();
    await page.waitForURL(/day=/);
    visited.push(["the phone-in's free times", page.url()]);
    check("the day's free times are listed", (await page.locator("a.slot").count()) > 0);
    await shot(page, "new-booking-times");
    await page.locator("a.slot").first().click();
    await page.getByLabel("Name").fill(customerName);
    await page.getByLabel("E-mail").fill(`${customerName.toLowerCase().replaceAll(" ", ".")}@example.com`);
    await page.getByLabel("Phone").fill("+49 30 987654");
    visited.push(["the phone-in's customer step", page.url()]);
    await shot(page, "new-booking-customer");
    await page.getByRole("button", { name: "Next" }).click();
    visited.push(["the phone-in's notes step", page.url()]);
    await page.getByLabel("Notes (optional)").fill("Booked by phone");
    await shot(page, "new-booking-notes");
    await page.getByRole("button", { name: "Book" }).click();
    await page.getByText("The booking was made.").waitFor();
    const id = /\/office\/bookings\/(bkg_\w+)/.exec(page.url())?.[1];
    const made = (await demoApi(origin, "GET", `/bookings/${id}`)).body;
    check(
      "booked without JavaScript: the API shows the booking with Sam Rivera, the customer and the notes",
      made.providerId === sam.id && made.customerName === customerName && made.notes === "Booked by phone",
      JSON.stringify(made).slice(0, 300),
    );
    await shot(page, "new-booking-done");
    await context.close();
  });

  await part("the phone-in's pages: axe-core, 375 px", async () => {
    const { page } = owner;
    for (const [name, url] of visited) {
      await page.goto(url);
      await audit(page, name);
    }
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [name, url] of visited.slice(2, 4)) {
      await page.goto(url);
      check(`no sideways scrolling at 375 px: ${name}`, !(await scrollsSideways(page)));
    }
    await shot(page, "new-booking-375");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await part("the customer search", async () => {
    const { page } = owner;
    await page.goto(`${origin}/office/customers`);
    await page.getByLabel("Name or e-mail").fill(customerName);
    await page.getByRole("button", { name: "Search" }).click();
    const result = page.getByRole("link", { name: customerName });
    check("the search finds the phone-in's customer", await shown(result));
    await audit(page, "the customer search");
    await shot(page, "customers");
    await result.click();
    check(
      "the customer's page lists the booking",
      (await shown(page.getByRole("heading", { name: customerName }))) &&
        (await page.locator('a[href^="/office/bookings/bkg_"]').count()) === 1,
    );
    await audit(page, "a customer's page");
    await shot(page, "customer");
    await page.setViewportSize({ width: 375, height: 800 });
    check("no sideways scrolling at 375 px: a customer's page", !(await scrollsSideways(page)));
    await shot(page, "customer-375");
    await page.getByRole("link", { name: "Erase customer" }).click();
    await audit(page, "the erasure's confirmation");
    await shot(page, "customer-erase");
  });
  await owner.context.close();
}
