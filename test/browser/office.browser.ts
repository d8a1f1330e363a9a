/**
 * `npm run test:browser` (with docs.browser.ts and booking.browser.ts): the office in a real
 * browser against `npm run dev` (fresh state, a free port), driven by playwright-core in headless
 * Chromium, signed in through the demo members' links the banner prints (each good once):
 *
 *  - office/day.ts: the day, live updates, a person's week, a booking's page and its actions,
 *    German, the staff member's own column;
 *  - office/phone-in.ts: the owner (a new link) books a phone-in with JavaScript off, then finds
 *    the customer by the search and opens their page;
 *  - office/passkeys.ts: the demo owner (with a new link, the banner's being spent) adds a passkey
 *    on Chromium's virtual authenticator at `localhost` (WebAuthn refuses an IP address's
 *    origin), signs out, signs in with it, and removes it;
 *  - office/setup.ts: the staff member's own hours and a day off without JavaScript, the owner's
 *    setup, a person's connect form and a feed address made, and an invitation;
 *  - office/setup-catalog.ts: the owner's business settings, services and rooms pages (a room
 *    added, a service saved) at 1280 and 375 px;
 *  - office/first-run.ts: a business made with `business:create` (on the server's state folder),
 *    its owner's first day with the checklist, at 1280 and 375 px.
 *
 * axe-core audits each page against WCAG 2.2 AA. Screenshots go to .ci/artifacts/office-*.png.
 * Prints one line per check, then `N passed, N failed`; exits 1 if any failed. The dev server's
 * process group is always stopped.
 */
import { printedSignInLinks } from "../support/dev-server.ts";
import { check, part, withDevServerAndBrowser } from "./harness.ts";
import { officeDay } from "./office/day.ts";
import { firstRun } from "./office/first-run.ts";
import { passkeys, withoutJavaScript } from "./office/passkeys.ts";
import { phoneIn } from "./office/phone-in.ts";
import { officeSetup } from "./office/setup.ts";
import { setupCatalog } from "./office/setup-catalog.ts";
import { freshSignInLink } from "./office/tools.ts";

await withDevServerAndBrowser(async (origin, browser, printed, persistDir) => {
  const links = printedSignInLinks(printed);
  const ownerLink = links.get("Olivia Owner");
  const staffLink = links.get("Sam Rivera");
  const local = origin.replace("127.0.0.1", "localhost");
  const printedBoth = ownerLink?.startsWith(`${local}/`) && staffLink?.startsWith(`${local}/`);
  if (!check("the banner prints the demo owner's and staff member's sign-in links at localhost", Boolean(printedBoth)))
    return;
  await officeDay(browser, ownerLink as string, staffLink as string);
  await phoneIn(browser, await freshSignInLink(local, "owner@example.com"));
  await part("passkeys: add, sign out, sign in with it, remove", async () =>
    passkeys(browser, local, await freshSignInLink(local, "owner@example.com")),
  );
  await part("passkeys: the sign-in page without JavaScript", () => withoutJavaScript(browser, local));
  await officeSetup(browser, local);
  await setupCatalog(browser, local);
  await firstRun(browser, local, persistDir);
});
