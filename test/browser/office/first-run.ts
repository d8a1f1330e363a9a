/**
 * The first-run checklist in the browser (office.browser.ts runs it): a business made as a new
 * customer's is (`npm run business:create -- --owner-email …` on the dev server's own state), its
 * owner signed in through a link asked for at the sign-in page; the day shows the three steps
 * unticked, audited by axe-core at 1280 and 375 px with no sideways scrolling. Screenshots
 * .ci/artifacts/office-first-run.png and -375.png.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { audit } from "../booking/tools.ts";
import { check, part, root } from "../harness.ts";
import { freshSignInLink, scrollsSideways, shot, shown, signedIn } from "./tools.ts";

const run = promisify(execFile);

/** A new business with an owner to invite, on the dev server's state folder `persistDir`. */
async function newBusiness(persistDir: string, email: string) {
  const args = ["scripts/business.ts", "create", "--name", "New Salon", "--owner-email", email, "--json"];
  await run(process.execPath, [...args, "--persist-to", persistDir], { cwd: root, timeout: 120_000 });
}

/** Signs a new business's owner in and checks the checklist on their first day page. */
export async function firstRun(browser: Browser, origin: string, persistDir: string) {
  await part("first run: a new business's owner sees the checklist", async () => {
    const email = "new.owner@example.com";
    await newBusiness(persistDir, email);
    const owner = await signedIn(browser, await freshSignInLink(origin, email), {
      viewport: { width: 1280, height: 900 },
    });
    const { page } = owner;
    const panel = page.getByRole("region", { name: "Get your booking page live" });
    check("the new owner's day shows the checklist", await shown(panel));
    check("its three steps are not yet done", (await panel.getByText("(not yet)").count()) === 3);
    await audit(page, "the day with the checklist at 1280 px");
    await shot(page, "first-run");
    await page.setViewportSize({ width: 375, height: 800 });
    await audit(page, "the day with the checklist at 375 px");
    check("no sideways scrolling on the day with the checklist at 375 px", !(await scrollsSideways(page)));
    await shot(page, "first-run-375");
    await owner.context.close();
  });
}
