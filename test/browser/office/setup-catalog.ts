/**
 * The owner's business settings, services and rooms pages in the browser (office.browser.ts runs
 * it): each page audited by axe-core at 1280 and 375 px, no sideways scrolling at 375 px; a room
 * added from its form, then a service saved, and the API shows them. Screenshots
 * .ci/artifacts/office-setup-<page>.png and -375.png.
 */
import type { Browser } from "playwright-core";
import { audit, demoApi } from "../booking/tools.ts";
import { check, part } from "../harness.ts";
import { freshSignInLink, scrollsSideways, shot, signedIn } from "./tools.ts";

/** The pages, each visited at both widths. */
export async function setupCatalog(browser: Browser, origin: string) {
  await part("setup: the owner's business settings, services and rooms pages", async () => {
    const link = await freshSignInLink(origin, "owner@example.com");
    const owner = await signedIn(browser, link, { viewport: { width: 1280, height: 900 } });
    const { page } = owner;
    await page.goto(`${origin}/office/setup/rooms/new`);
    await page.getByLabel("Name", { exact: true }).fill("Quiet room");
    await page.getByRole("button", { name: "Add room" }).click();
    await page.getByText("Room added.").waitFor();
    const rooms = (await demoApi(origin, "GET", "/resources")).body.data as { name: string }[];
    check(
      "the API lists the room added on its page",
      rooms.some((r) => r.name === "Quiet room"),
    );
    const services = (await demoApi(origin, "GET", "/services")).body.data as { id: string }[];
    const serviceId = services[0]?.id ?? "";
    await page.goto(`${origin}/office/setup/services/${serviceId}`);
    await page.getByRole("button", { name: "Save service" }).click();
    const saved = page.getByText(/Nothing to change\.|Service saved\./);
    // Waited for, not asked at once: after the click the next page may still be loading.
    await saved.waitFor({ timeout: 10_000 }).catch(() => undefined);
    check("a service's form sent as shown saves", await saved.isVisible());
    const pages = [
      ["business", "/office/setup/business"],
      ["services", "/office/setup/services"],
      ["service", `/office/setup/services/${serviceId}`],
      ["service-new", "/office/setup/services/new"],
      ["rooms", "/office/setup/rooms"],
      ["room-new", "/office/setup/rooms/new"],
    ] as const;
    for (const [name, path] of pages) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${origin}${path}`);
      await audit(page, `the ${name} page at 1280 px`);
      await shot(page, `setup-${name}`);
      await page.setViewportSize({ width: 375, height: 800 });
      await audit(page, `the ${name} page at 375 px`);
      check(`no sideways scrolling on the ${name} page at 375 px`, !(await scrollsSideways(page)));
      await shot(page, `setup-${name}-375`);
    }
    await owner.context.close();
  });
}
