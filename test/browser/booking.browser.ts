/**
 * `npm run test:browser` (with docs.browser.ts): the booking page and the manage page in a real
 * browser against `npm run dev` (fresh state, a free port), driven by playwright-core in headless
 * Chromium, with axe-core auditing every step against WCAG 2.2 AA:
 *
 *  - the whole flow with JavaScript (a visitor in America/New_York booking a Europe/Berlin
 *    service: the stored UTC instant is the slot clicked), without it, by keyboard alone, in
 *    German, and on a 375-px phone;
 *  - the page embedded in another site (its parent gets `booking.scheduled`), a time taken
 *    meanwhile (before and after the hold), a customer at their booking limit, the zone switch,
 *    the manage page (opened two months ahead in New York with and without JavaScript; move,
 *    cancel, the policy window), and dead addresses (HTML 404s);
 *  - what each step weighs (HTML, CSS, JS; raw and gzip) and how long from navigation to the
 *    day's times on screen, printed (never asserted as a time).
 *
 * Screenshots of each step go to .ci/artifacts/booking-*.png. Prints one line per check, then
 * `N passed, N failed`; exits 1 if any failed. The dev server's process group is always stopped.
 */

import { customerLimit, deadEnds, embedded, managePage, takenMeanwhile } from "./booking/edges.ts";
import type { Booked } from "./booking/flows.ts";
import { manageOpened } from "./booking/manage.ts";
import type { Weight } from "./booking/tools.ts";
import {
  germanVisitor,
  keyboardOnly,
  newYorkVisitor,
  phoneVisitor,
  timeToTimes,
  withoutJavaScript,
  zoneSwitch,
} from "./booking/visitors.ts";
import { check, log, part, withDevServerAndBrowser } from "./harness.ts";

/** Each step's budget: HTML + CSS + JS at most 50 KB as transferred, JS at most 15 KB gzip. */
const STEP_BYTES = 50 * 1024;
const SCRIPT_GZIP_BYTES = 15 * 1024;

function reportWeights(weights: Weight[]) {
  const kb = (n: number) => (n / 1024).toFixed(1);
  log("what each step transfers on a first visit (KB; raw as served locally / gzip as Cloudflare sends it):");
  log("  step               HTML          CSS          JS           total");
  for (const w of weights) {
    const total = w.html + w.css + w.js;
    const totalGz = w.htmlGz + w.cssGz + w.jsGz;
    log(
      `  ${w.step.padEnd(18)} ${`${kb(w.html)}/${kb(w.htmlGz)}`.padEnd(13)} ${`${kb(w.css)}/${kb(w.cssGz)}`.padEnd(12)} ${`${kb(w.js)}/${kb(w.jsGz)}`.padEnd(12)} ${kb(total)}/${kb(totalGz)}`,
    );
    check(
      `${w.step}: HTML + CSS + JS ≤ 50 KB (${kb(total)} KB uncompressed), JS ≤ 15 KB gzip (${kb(w.jsGz)} KB)`,
      total <= STEP_BYTES && w.jsGz <= SCRIPT_GZIP_BYTES,
    );
  }
}

await withDevServerAndBrowser(async (origin, browser) => {
  const weights: Weight[] = [];
  let booked: Booked | undefined;
  await part("a New York visitor with JavaScript", async () => {
    booked = await newYorkVisitor(browser, origin, weights);
  });
  reportWeights(weights);
  await part("without JavaScript", () => withoutJavaScript(browser, origin));
  await part("keyboard only", () => keyboardOnly(browser, origin));
  await part("German", () => germanVisitor(browser, origin));
  await part("a 375-px phone", () => phoneVisitor(browser, origin));
  await part("embedded in another site", () => embedded(browser, origin));
  await part("a time taken meanwhile", () => takenMeanwhile(browser, origin));
  await part("a customer at their booking limit", () => customerLimit(browser, origin));
  await part("the zone switch", () => zoneSwitch(browser, origin));
  await part("navigation to the times", () => timeToTimes(browser, origin));
  await part("a manage link opened two months ahead", () => manageOpened(browser, origin));
  // The parts below need the first one's booking (BROWSER_ONLY may have left it out).
  if (!booked) return void (process.env.BROWSER_ONLY || check("a booking to go on with", false));
  const made = booked;
  await part("the manage page", () => managePage(browser, origin, made));
  await part("dead ends", () => deadEnds(browser, origin, made));
});
