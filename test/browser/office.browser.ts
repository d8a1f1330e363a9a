/**
 * `npm run test:browser` (with docs.browser.ts and booking.browser.ts): the office in a real
 * browser against `npm run dev` (fresh state, a free port), driven by playwright-core in headless
 * Chromium, signed in through the demo members' links the banner prints (office/day.ts: the day,
 * live updates, a booking's page and its actions, German, the staff member's own column).
 *
 * Screenshots go to .ci/artifacts/office-*.png. Prints one line per check, then `N passed, N
 * failed`; exits 1 if any failed. The dev server's process group is always stopped.
 */
import { printedSignInLinks } from "../support/dev-server.ts";
import { check, withDevServerAndBrowser } from "./harness.ts";
import { officeDay } from "./office/day.ts";

await withDevServerAndBrowser(async (_origin, browser, printed) => {
  const links = printedSignInLinks(printed);
  const ownerLink = links.get("Olivia Owner");
  const staffLink = links.get("Sam Rivera");
  check("the banner prints the demo owner's and staff member's sign-in links", Boolean(ownerLink && staffLink));
  if (!ownerLink || !staffLink) return;
  await officeDay(browser, ownerLink, staffLink);
});
