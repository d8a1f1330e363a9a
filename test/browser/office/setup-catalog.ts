/**
 * The owner's business settings, services, rooms, API keys and webhooks pages in the browser
 * (office.browser.ts runs it): each page audited by axe-core at 1280 and 375 px, no sideways
 * scrolling at 375 px; a room added from its form, then a service saved, and the API shows them;
 * a key made from its form, the page showing it once audited at both widths too, and a reload of
 * it making no second key; the steps confirming a key's revocation and an endpoint's deletion,
 * audited and left by Cancel. Screenshots .ci/artifacts/office-setup-<page>.png and -375.png.
 */
import type { Browser, Page } from "playwright-core";
import { audit, demoApi } from "../booking/tools.ts";
import { check, part } from "../harness.ts";
import { freshSignInLink, scrollsSideways, shot, signedIn } from "./tools.ts";

/** The page as it is now audited at 1280 and then 375 px, with its screenshots. */
async function auditBoth(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await audit(page, `the ${name} page at 1280 px`);
  await shot(page, `setup-${name}`);
  await page.setViewportSize({ width: 375, height: 800 });
  await audit(page, `the ${name} page at 375 px`);
  check(`no sideways scrolling on the ${name} page at 375 px`, !(await scrollsSideways(page)));
  await shot(page, `setup-${name}-375`);
}

/** A key made on the API keys page: the answer shows it once, and is audited as it stands. */
async function keyShownOnce(page: Page, origin: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${origin}/office/setup/api-keys`);
  await page.getByLabel("Name", { exact: true }).fill("Browser till");
  await page.getByLabel("bookings:read", { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByText("Your new key").waitFor({ timeout: 10_000 });
  const key = (await page.locator("#secret").textContent()) ?? "";
  check("the new key is shown once on the page answering the form", key.startsWith("bk_"));
  await auditBoth(page, "api-key-new");
  const count = async () => ((await demoApi(origin, "GET", "/api-keys?limit=100")).body.data as unknown[]).length;
  const before = await count();
  await page.reload();
  await page.getByText(/This form was sent before/).waitFor({ timeout: 10_000 });
  check("a reload of that page makes no second key and says so", (await count()) === before);
  await shot(page, "setup-api-key-resent");
}

/** The steps before a revocation and a deletion: each names its thing, is audited, and Cancel changes nothing. */
async function confirmSteps(page: Page, origin: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${origin}/office/setup/api-keys`);
  await page.getByRole("link", { name: "Revoke: Browser till" }).click();
  await page.getByRole("heading", { name: "Revoke the key “Browser till”?" }).waitFor();
  await auditBoth(page, "api-key-revoke");
  await page.getByRole("link", { name: "Cancel" }).click();
  await page.waitForURL(/\/office\/setup\/api-keys$/);
  const url = "https://example.com/a-rather-long-path/for-the-office-browser-check/hooks";
  const hook = (await demoApi(origin, "POST", "/webhooks", { url, events: ["booking.created"] })).body;
  await page.goto(`${origin}/office/setup/webhooks`);
  await page.getByRole("link", { name: `Delete: ${url}` }).click();
  await page.getByRole("heading", { name: `Delete the endpoint ${url}?` }).waitFor();
  await auditBoth(page, "webhook-delete");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("button", { name: "Delete endpoint" }).click();
  await page.getByText("Endpoint deleted").waitFor();
  const left = (await demoApi(origin, "GET", "/webhooks")).body.data as { id: string }[];
  check("the confirmed deletion removes the endpoint", !left.some((h) => h.id === hook.id));
}

/** The pages, each visited at both widths. */
export async function setupCatalog(browser: Browser, origin: string) {
  await part("setup: the owner's business settings, services, rooms, API keys and webhooks pages", async () => {
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
      ["api-keys", "/office/setup/api-keys"],
      ["webhooks", "/office/setup/webhooks"],
    ] as const;
    await keyShownOnce(page, origin);
    await confirmSteps(page, origin);
    for (const [name, path] of pages) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${origin}${path}`);
      await auditBoth(page, name);
    }
    await owner.context.close();
  });
}
