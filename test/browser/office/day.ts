/**
 * The office's day and bookings in the browser (office.browser.ts runs it): the owner's day at
 * 1280 and 375 px (no sideways scrolling), axe-core on every page, a booking made through the
 * API showing up without a reload within 5 s, a person's week, the booking's page and its free
 * times, cancelling with JavaScript and without, the day in German; the staff member's day with
 * their own column only. Each member signs in through their own printed link (good once).
 */
import type { Browser } from "playwright-core";
import { audit, demoApi } from "../booking/tools.ts";
import { check, part } from "../harness.ts";
import { bookHaircut, sameSession, scrollsSideways, shot, shown, signedIn, watchOffice, weightOf } from "./tools.ts";

/** The office's budget: a page ≤ 60 KB (HTML, CSS, JS), its script ≤ 15 KB gzip. */
const PAGE_BYTES = 60 * 1024;
const SCRIPT_GZIP_BYTES = 15 * 1024;

/** Every part of the office's day test, the owner and the staff member signed in by their links. */
export async function officeDay(browser: Browser, ownerLink: string, staffLink: string) {
  // The links name `localhost` (passkeys need a host name): the office is used there.
  const origin = new URL(ownerLink).origin;
  const owner = await signedIn(browser, ownerLink, { viewport: { width: 1280, height: 900 } });
  const problems = watchOffice(owner.context);
  const { page } = owner;
  const sam = (await demoApi(origin, "GET", "/providers?limit=100")).body.data.find(
    (p: { name: string }) => p.name === "Sam Rivera",
  ) as { id: string };

  await part("the owner's day, live", async () => {
    check("signed in, the office names the owner", (await page.locator(".who").innerText()).includes("Olivia Owner"));
    const first = await bookHaircut(origin, "Walk In One", sam.id);
    await page.goto(`${origin}/office/day/${first.day}`);
    const weight = await weightOf(page);
    check(
      `the day page weighs ${(weight.total / 1024).toFixed(1)} KB (≤ 60), its script ${(weight.jsGz / 1024).toFixed(1)} KB gzip (≤ 15)`,
      weight.total <= PAGE_BYTES && weight.jsGz <= SCRIPT_GZIP_BYTES && weight.js > 0,
    );
    check("the day shows the booking made before it opened", await shown(page.getByText("Walk In One").first()));
    check("no sideways scrolling at 1280 px", !(await scrollsSideways(page)));
    await audit(page, "the owner's day at 1280 px");
    await shot(page, "day-1280");
    const made = Date.now();
    const second = await bookHaircut(origin, "Phone In Two", sam.id);
    if (second.day !== first.day) {
      await page.goto(`${origin}/office/day/${second.day}`);
    }
    const appeared = await page
      .getByText("Phone In Two")
      .first()
      .waitFor({ state: "visible", timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    check(
      `a booking made through the API appears without a reload (${((Date.now() - made) / 1000).toFixed(1)} s)`,
      appeared && second.day === first.day,
    );
    await page.setViewportSize({ width: 375, height: 800 });
    check("no sideways scrolling at 375 px", !(await scrollsSideways(page)));
    await audit(page, "the owner's day at 375 px");
    await shot(page, "day-375");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/office/week/${first.day}/${sam.id}`);
    check("Sam Rivera's week shows the day's bookings", await shown(page.getByText("Phone In Two").first()));
    check("no sideways scrolling on a week", !(await scrollsSideways(page)));
    await audit(page, "a person's week");
    await shot(page, "week");
  });

  await part("a booking's page, cancelled with JavaScript", async () => {
    const { booking, day } = await bookHaircut(origin, "Cancel With Script");
    await page.goto(`${origin}/office/day/${day}`);
    await page
      .getByRole("link", { name: /Cancel With Script/ })
      .first()
      .click();
    await page.waitForURL(new RegExp(`/office/bookings/${booking.id}$`));
    check(
      "the booking's page names its customer",
      await shown(page.getByRole("heading", { name: /Cancel With Script/ })),
    );
    await audit(page, "a booking's page");
    await shot(page, "booking");
    await page.getByRole("button", { name: "Show free times" }).click();
    await page.waitForURL(/moveDay=/);
    check("the booking's page lists free times to move it to", (await page.locator("button.slot").count()) > 0);
    await audit(page, "a booking's free times");
    await shot(page, "booking-move");
    await page.getByLabel("Reason for cancelling (optional)").fill("Customer called");
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await page.getByText("The booking was cancelled.").waitFor();
    const after = (await demoApi(origin, "GET", `/bookings/${booking.id}`)).body;
    check(
      "cancelled with JavaScript: the API shows it cancelled, with the reason",
      after.status === "CANCELLED" && after.cancellationReason === "Customer called",
    );
    await audit(page, "a booking's page after cancelling");
    await shot(page, "booking-cancelled");
  });

  await part("cancelled without JavaScript", async () => {
    const context = await sameSession(browser, owner.context, { javaScriptEnabled: false });
    const plain = await context.newPage();
    const { booking } = await bookHaircut(origin, "Cancel Without Script");
    await plain.goto(`${origin}/office/bookings/${booking.id}`);
    await plain.getByLabel("Reason for cancelling (optional)").fill("No longer needed");
    await plain.getByRole("button", { name: "Cancel booking" }).click();
    await plain.getByText("The booking was cancelled.").waitFor();
    const after = (await demoApi(origin, "GET", `/bookings/${booking.id}`)).body;
    check(
      "cancelled without JavaScript: the API shows it cancelled",
      after.status === "CANCELLED" && after.cancellationReason === "No longer needed",
    );
    await shot(plain, "booking-no-js");
    await context.close();
  });

  await part("the day in German", async () => {
    const context = await sameSession(browser, owner.context, {
      locale: "de-DE",
      viewport: { width: 1280, height: 900 },
    });
    const german = await context.newPage();
    await german.goto(`${origin}/office`);
    check(
      "German when the browser asks for it",
      (await german.getAttribute("html", "lang")) === "de" &&
        (await shown(german.getByRole("button", { name: "Abmelden" }))),
    );
    await audit(german, "the day in German");
    await shot(german, "day-de");
    await context.close();
  });

  await part("the staff member's day", async () => {
    const staff = await signedIn(browser, staffLink, { viewport: { width: 1280, height: 900 } });
    const { day } = await bookHaircut(origin, "For Sam Only", sam.id);
    await staff.page.goto(`${origin}/office/day/${day}`);
    const headings = await staff.page.locator(".column h2").allInnerTexts();
    check(
      `staff see their own column only (${headings.join(" | ")})`,
      headings.length === 1 && headings[0]?.includes("Sam Rivera") === true,
    );
    await audit(staff.page, "the staff member's day");
    await shot(staff.page, "staff-day");
    await staff.context.close();
  });

  check("the owner's office pages: no script error or CSP violation", problems.length === 0, problems.join("\n"));
}
