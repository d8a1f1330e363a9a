/**
 * Passkeys in Chromium with its DevTools virtual authenticator (CTAP2, internal, resident keys,
 * user verification): a real WebAuthn ceremony against the dev server, at `localhost`.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { audit } from "../booking/tools.ts";
import { artifactsDir, check } from "../harness.ts";
import { shown } from "./tools.ts";

/** A full-page screenshot as .ci/artifacts/office-passkeys-<name>.png. */
async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `office-passkeys-${name}.png`), fullPage: true });
}

/** Errors the page reports (a CSP violation, a failed script) collected as they come. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** Signs the demo owner in with `link`, adds a passkey, signs out and back in with it, removes it. */
export async function passkeys(browser: Browser, origin: string, link: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watch(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await page.goto(link);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${origin}/office`);
  check("a sign-in link signs the demo owner in", (await page.textContent("body"))?.includes("Olivia Owner") ?? false);

  await page.goto(`${origin}/office/passkeys`);
  check("the passkeys page says there are none yet", await shown(page.getByText("You have no passkeys yet.")));
  check("with JavaScript, the form to add one shows", await shown(page.getByRole("button", { name: "Add a passkey" })));
  await audit(page, "the passkeys page, none yet");
  await screenshot(page, "empty");

  await page.getByLabel("Name of the new passkey (optional)").fill("This laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByText("This laptop", { exact: true }).waitFor();
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  check(
    "the authenticator holds one discoverable passkey for localhost",
    credentials.length === 1 && credentials[0]?.isResidentCredential === true && credentials[0]?.rpId === "localhost",
    JSON.stringify(credentials.map((c) => ({ rpId: c.rpId, resident: c.isResidentCredential }))),
  );
  const row = page.getByRole("listitem").filter({ hasText: "This laptop" });
  check("the list shows it, never used", (await row.textContent())?.includes("Last used: never") ?? false);
  await audit(page, "the passkeys page, one passkey");
  await screenshot(page, "added");
  await page.setViewportSize({ width: 375, height: 740 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(`on a 375-px phone the passkeys page needs no horizontal scrolling (${wide} px)`, wide <= 375);
  await screenshot(page, "phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.goto(`${origin}/office`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${origin}/office/sign-in`);
  const passkeyButton = page.getByRole("button", { name: "Sign in with a passkey" });
  check("the sign-in page offers a passkey beside the e-mail form", await shown(passkeyButton));
  await audit(page, "the sign-in page with its passkey button");
  await screenshot(page, "sign-in");

  await passkeyButton.click();
  await page.waitForURL(`${origin}/office`);
  check(
    "the passkey signs the owner in: the office names them",
    (await page.textContent("body"))?.includes("Olivia Owner") ?? false,
  );
  await screenshot(page, "signed-in");

  await page.goto(`${origin}/office/passkeys`);
  check("its last use is listed", !((await row.textContent())?.includes("Last used: never") ?? true));
  await page.getByRole("button", { name: "Remove This laptop" }).click();
  const emptied = await page
    .getByText("You have no passkeys yet.")
    .waitFor({ timeout: 15_000 })
    .then(
      () => true,
      () => false,
    );
  check("removing it empties the list", emptied);
  await screenshot(page, "removed");
  check("no errors or CSP violations on any page", problems.length === 0, problems.join("\n"));
  await context.close();
}

/** Without JavaScript the sign-in page keeps the e-mail form and shows no passkey button. */
export async function withoutJavaScript(browser: Browser, origin: string): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${origin}/office/sign-in`);
  check("without JavaScript: the e-mail form shows", await shown(page.getByLabel("E-mail address")));
  check(
    "without JavaScript: no passkey button shows",
    !(await page.getByRole("button", { name: "Sign in with a passkey" }).isVisible()),
  );
  await context.close();
}
