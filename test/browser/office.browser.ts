/**
 * `npm run test:browser` (with docs.browser.ts and booking.browser.ts): the office in a real
 * browser against `npm run dev` (fresh state, a free port), driven by playwright-core in headless
 * Chromium. Passkeys: the demo owner signs in with the banner's link at `localhost` (WebAuthn
 * refuses an IP address's origin), adds a passkey on Chromium's virtual authenticator, signs
 * out, signs in with it, and removes it; axe-core audits each page against WCAG 2.2 AA.
 *
 * Screenshots go to .ci/artifacts/office-passkeys-*.png. Prints one line per check, then
 * `N passed, N failed`; exits 1 if any failed. The dev server's process group is always stopped.
 */
import { check, part, withDevServerAndBrowser } from "./harness.ts";
import { passkeys, withoutJavaScript } from "./office/passkeys.ts";

await withDevServerAndBrowser(async (origin, browser, printed) => {
  const link = /Olivia Owner: (http:\/\/localhost:\d+\/office\/sign-in\/link\?token=\S+)/.exec(printed.text)?.[1];
  if (!check("the banner prints the demo owner's sign-in link at localhost", link !== undefined)) return;
  const local = origin.replace("127.0.0.1", "localhost");
  await part("passkeys: add, sign out, sign in with it, remove", () => passkeys(browser, local, link as string));
  await part("passkeys: the sign-in page without JavaScript", () => withoutJavaScript(browser, local));
});
