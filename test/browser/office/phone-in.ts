/**
 * The phone-in and the customers' pages in the browser (office.browser.ts runs it): the owner
 * books a phone-in with JavaScript off — Haircut, Sam Rivera, a free time, a new customer,
 * notes — and the API shows the booking; then finds that customer by the search and opens their
 * page; then a visit (Haircut then Beard trim, both with Sam) the same way, and the API shows its
 * two bookings back to back. axe-core audits each page (with JavaScript on, in the same session),
 * 375 px needs no sideways scrolling, screenshots as .ci/artifacts/office-new-booking-*.png and
 * office-customer*.png.
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

  await part("a visit phone-in without JavaScript", async () => {
    const context = await sameSession(browser, owner.context, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${origin}/office/bookings/new`);
    await page.getByRole("link", { name: /Haircut/ }).click();
    await page.getByRole("link", { name: "Sam Rivera" }).click();
    await page.getByRole("link", { name: /Add another service/ }).click();
    visited.push(["the visit's next service", page.url()]);
    await page.getByRole("link", { name: /Beard trim/ }).click();
    await page.getByRole("link", { name: "Sam Rivera" }).click();
    // The first day from the day after tomorrow with a free time for the visit.
    for (let days = 2; days < 9 && (await page.locator("a.slot").count()) === 0; days++) {
      const day = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel("Day").fill(day);
      await page.getByRole("button", { name: "Show free times" }).click();
      await page.waitForURL(new RegExp(`day=${day}`));
    }
    visited.push(["the visit's free times", page.url()]);
    check("the visit's free times are listed", (await page.locator("a.slot").count()) > 0);
    await shot(page, "new-booking-visit-times");
    await page.locator("a.slot").first().click();
    await page.getByLabel("Name").fill(`Two Services ${Date.now() % 100000}`);
    await page.getByLabel("E-mail").fill(`visit.${Date.now() % 100000}@example.com`);
    await page.getByRole("button", { name: "Next" }).click();
    visited.push(["the visit's notes step", page.url()]);
    await shot(page, "new-booking-visit-notes");
    await page.getByRole("button", { name: "Book" }).click();
    await page.getByText("The visit was booked").waitFor();
    visited.push(["a visit's booking", page.url()]);
    const id = /\/office\/bookings\/(bkg_\w+)/.exec(page.url())?.[1];
    const first = (await demoApi(origin, "GET", `/bookings/${id}`)).body;
    const visit = (await demoApi(origin, "GET", `/appointments/${first.appointmentId}`)).body;
    const [cut, trim] = visit.bookings ?? [];
    check(
      "a visit booked without JavaScript: Haircut then Beard trim back to back, both with Sam, one customer",
      visit.bookings?.length === 2 &&
        cut.providerId === sam.id &&
        trim.providerId === sam.id &&
        trim.startTime === cut.endTime &&
        trim.customerId === cut.customerId,
      JSON.stringify(visit).slice(0, 300),
    );
    check("the booking's page lists the visit's bookings", (await page.locator("#visit ~ ol li").count()) === 2);
    await shot(page, "new-booking-visit-done");
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
