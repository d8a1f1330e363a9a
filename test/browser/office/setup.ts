/**
 * The office's setup pages in the browser (office.browser.ts runs it): the demo staff member sets
 * their own hours and a day off with JavaScript off, at 375 px, and the API shows them; the demo
 * owner's setup, a person's page (the connect form, a feed address made), the members page, and an invitation. axe-core on every page, no sideways
 * scrolling; screenshots .ci/artifacts/office-setup-*.png.
 */
import type { Browser } from "playwright-core";
import { audit, demoApi } from "../booking/tools.ts";
import { check, part } from "../harness.ts";
import { freshSignInLink, sameSession, scrollsSideways, shot, shown, signedIn } from "./tools.ts";

/** Both parts, each member signed in by a fresh link (the banner's are spent by then). */
export async function officeSetup(browser: Browser, origin: string) {
  await part("setup: the staff member's hours and a day off without JavaScript", async () => {
    const link = await freshSignInLink(origin, "sam@example.com");
    const staff = await signedIn(browser, link, { javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const { page } = staff;
    check("staff see My hours in the nav", await shown(page.getByRole("link", { name: "My hours" })));
    await page.getByRole("link", { name: "My hours" }).click();
    await page.waitForURL(/\/office\/setup\/people\/prv_/);
    const providerId = new URL(page.url()).pathname.split("/").pop() as string;
    check("no sideways scrolling at 375 px", !(await scrollsSideways(page)));
    await page.getByLabel("Monday, interval 1").fill("10:00–16:00");
    await page.getByLabel("Monday, interval 2").fill("");
    await page.getByRole("button", { name: "Save hours" }).click();
    await page.getByText("Hours saved.").waitFor();
    await page.getByLabel("Date", { exact: true }).fill("2027-12-24");
    await page.getByLabel(/Hours that day/).fill("09:00–12:00");
    await page.getByRole("button", { name: "Add date" }).click();
    await page.getByText("Date added.").waitFor();
    const provider = (await demoApi(origin, "GET", `/providers/${providerId}`)).body;
    check(
      "the API shows the new Monday hours and the day's hours",
      JSON.stringify(provider.weeklySchedule.mon) === JSON.stringify([{ start: "10:00", end: "16:00" }]) &&
        provider.dateOverrides.some(
          (o: { date: string; intervals: unknown[] }) => o.date === "2027-12-24" && o.intervals.length === 1,
        ),
      JSON.stringify(provider),
    );
    check("no sideways scrolling after saving", !(await scrollsSideways(page)));
    await shot(page, "setup-staff-375");
    await page.getByLabel("Monday, interval 1").fill("25:00–26:00");
    await page.getByRole("button", { name: "Save hours" }).click();
    check("a bad interval is shown at its field", await shown(page.locator("#s-mon-0-err")));
    await shot(page, "setup-staff-refused");
    // axe-core runs as a script: the same pages audited with JavaScript on, in the same session.
    const scripted = await sameSession(browser, staff.context, { viewport: { width: 375, height: 800 } });
    const audited = await scripted.newPage();
    await audited.goto(`${origin}/office/setup/people/${providerId}`);
    await audit(audited, "the staff member's hours at 375 px");
    await audited.getByLabel("Monday, interval 1").fill("25:00–26:00");
    await audited.getByRole("button", { name: "Save hours" }).click();
    await audited.locator("#s-mon-0-err").waitFor();
    await audit(audited, "a refused change of hours");
    await scripted.close();
    await staff.context.close();
  });

  await part("setup: the owner makes a feed address and invites a member", async () => {
    const link = await freshSignInLink(origin, "owner@example.com");
    const owner = await signedIn(browser, link, { viewport: { width: 1280, height: 900 } });
    const { page } = owner;
    await page.getByRole("link", { name: "Setup" }).click();
    await page.waitForURL(/\/office\/setup$/);
    check("the setup lists Sam Rivera", await shown(page.getByRole("link", { name: "Sam Rivera" })));
    await audit(page, "the owner's setup");
    await shot(page, "setup");
    // A person's calendars and feed: the connect form is there, and a feed address is made and shown once.
    await page.getByRole("link", { name: "Sam Rivera" }).click();
    await page.waitForURL(/\/office\/setup\/people\/prv_/);
    check("the connect form is shown", await shown(page.getByLabel(/Calendar address/)));
    await page.getByRole("button", { name: /feed address/ }).click();
    const feed = await page.getByRole("textbox", { name: "Feed address" }).inputValue();
    check("the new feed address is shown once", /\/api\/v1\/feeds\/cal_[\w-]+\.ics$/.test(feed), feed);
    const ics = await fetch(feed);
    check("the feed address answers text/calendar", (ics.headers.get("Content-Type") ?? "").includes("text/calendar"));
    await audit(page, "a person's page with a feed address made");
    await shot(page, "setup-person-feed");
    await page.setViewportSize({ width: 375, height: 800 });
    check("no sideways scrolling on a person's page at 375 px", !(await scrollsSideways(page)));
    await shot(page, "setup-person-feed-375");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/office/setup`);
    await page.getByRole("link", { name: "Members" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Fran Desk");
    await page.getByLabel("E-mail", { exact: true }).fill("fran.desk@example.com");
    await page.getByLabel("Role", { exact: true }).selectOption("frontdesk");
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByText("Member invited.").waitFor();
    const members = (await demoApi(origin, "GET", "/members?limit=100")).body.data as {
      email: string;
      status: string;
    }[];
    check(
      "the API lists the invited member",
      members.some((m) => m.email === "fran.desk@example.com" && m.status === "invited"),
    );
    await audit(page, "the members page");
    await shot(page, "setup-members");
    await page.setViewportSize({ width: 375, height: 800 });
    check("no sideways scrolling on the members page at 375 px", !(await scrollsSideways(page)));
    await shot(page, "setup-members-375");
    await owner.context.close();
  });
}
