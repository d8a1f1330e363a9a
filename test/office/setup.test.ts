/**
 * The office's setup pages: a staff member's own hours and days off (through the API's provider
 * update, the member the audit's actor), who may open which page, members (invite, disable, the
 * last owner), cross-site posts, bad intervals and German.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { type Salon, salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";

/** The salon's `i`th person's id. */
const person = (s: Salon, i: number) => s.providerIds[i] as string;
const providerOf = async (key: string, id: string) => json(await api("GET", `/providers/${id}`, { key }));
const membersOf = async (key: string) => (await json(await api("GET", "/members?limit=100", { key }))).data;

describe("a staff member's own hours", () => {
  it("are set from the page, with a day off, as the API then shows them; the audit names the member", async () => {
    const s = await salon(2);
    const staff = await deskMember(s, "staff");
    const start = await office("GET", "/office/setup", { cookie: staff.cookie });
    expect(start.status).toBe(303);
    const mine = `/office/setup/people/${person(s, 0)}`;
    expect(start.headers.get("Location")).toBe(mine);
    const shown = await page(mine, staff.cookie);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Stylist 0");
    expect(shown.html).toContain('value="09:00–17:00"');
    expect(shown.html).toContain("marks them as conflicts");
    expect(shown.html).toContain("My hours");

    const saved = await office("POST", `${mine}/hours`, {
      cookie: staff.cookie,
      form: { "mon.0": "10:00–14:00", "tue.0": "9:00-12:00", "tue.1": "13:00–17:00" },
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe(`${mine}?done=hours`);
    expect((await page(`${mine}?done=hours`, staff.cookie)).html).toContain("Hours saved.");
    let provider = await providerOf(s.apiKey, person(s, 0));
    expect(provider.weeklySchedule.mon).toEqual([{ start: "10:00", end: "14:00" }]);
    expect(provider.weeklySchedule.tue).toEqual([
      { start: "09:00", end: "12:00" },
      { start: "13:00", end: "17:00" },
    ]);
    expect(provider.weeklySchedule.wed).toEqual([]);

    const dayOff = await office("POST", `${mine}/days-off`, {
      cookie: staff.cookie,
      form: { date: "2027-01-04", hours: "" },
    });
    expect(dayOff.status).toBe(303);
    const special = await office("POST", `${mine}/days-off`, {
      cookie: staff.cookie,
      form: { date: "2027-01-05", hours: "09:00–12:00, 14:00–16:00" },
    });
    expect(special.status).toBe(303);
    provider = await providerOf(s.apiKey, person(s, 0));
    expect(provider.dateOverrides).toEqual([
      { date: "2027-01-04", intervals: [] },
      {
        date: "2027-01-05",
        intervals: [
          { start: "09:00", end: "12:00" },
          { start: "14:00", end: "16:00" },
        ],
      },
    ]);
    const audit = (await json(await api("GET", `/audit-events?resourceId=${person(s, 0)}`, { key: s.apiKey }))).data;
    expect(audit[0]).toMatchObject({
      actor: { type: "member", id: staff.id },
      action: "provider.updated",
      fields: ["dateOverrides"],
    });
    expect(audit[2]).toMatchObject({ actor: { type: "member", id: staff.id }, fields: ["weeklySchedule"] });

    const listed = await page(mine, staff.cookie);
    // Dates read as dates in the member's language, machine-readable beside.
    expect(listed.html).toContain('<time datetime="2027-01-04">Monday, January 4, 2027</time>');
    expect(listed.html).toContain("09:00–12:00, 14:00–16:00");
    const removed = await office("POST", `${mine}/days-off/remove`, {
      cookie: staff.cookie,
      form: { date: "2027-01-04" },
    });
    expect(removed.status).toBe(303);
    expect((await providerOf(s.apiKey, person(s, 0))).dateOverrides.map((o: { date: string }) => o.date)).toEqual([
      "2027-01-05",
    ]);
  });

  it("a bad interval is a 422 page naming the field, and nothing changes", async () => {
    const s = await salon(1);
    const staff = await deskMember(s, "staff");
    const mine = `/office/setup/people/${person(s, 0)}`;
    const before = await providerOf(s.apiKey, person(s, 0));
    for (const [form, field, words] of [
      [{ "mon.0": "9 to 5" }, "s-mon-0", "Use HH:MM–HH:MM"],
      [{ "wed.0": "17:00–09:00" }, "s-wed-0", "The end must be after the start"],
      [{ "fri.0": "09:00–12:00", "fri.2": "11:00–13:00" }, "s-fri-2", "must not overlap"],
    ] as const) {
      const res = await office("POST", `${mine}/hours`, { cookie: staff.cookie, form });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      expect(html).toContain(`id="${field}-err"`);
      expect(html.slice(html.indexOf(`id="${field}-err"`)).slice(0, 200)).toContain(words);
      expect(html).toContain("Nothing was saved");
    }
    const badDate = await office("POST", `${mine}/days-off`, {
      cookie: staff.cookie,
      form: { date: "2027-02-30", hours: "" },
    });
    expect(badDate.status).toBe(422);
    expect(await badDate.text()).toContain('id="s-date-err"');
    expect(await providerOf(s.apiKey, person(s, 0))).toEqual(before);
  });

  it("another person's page is a 404 page and their hours stay; members and the front desk's setup are 403 pages", async () => {
    const s = await salon(2);
    const staff = await deskMember(s, "staff");
    const theirs = `/office/setup/people/${person(s, 1)}`;
    const other = await page(theirs, staff.cookie);
    expect(other.status).toBe(404);
    expect(other.html).toContain("Not found");
    const before = await providerOf(s.apiKey, person(s, 1));
    const post = await office("POST", `${theirs}/hours`, { cookie: staff.cookie, form: { "mon.0": "10:00–11:00" } });
    expect(post.status).toBe(404);
    expect(
      (await office("POST", `${theirs}/days-off`, { cookie: staff.cookie, form: { date: "2027-01-04" } })).status,
    ).toBe(404);
    expect(await providerOf(s.apiKey, person(s, 1))).toEqual(before);
    const members = await page("/office/setup/members", staff.cookie);
    expect(members.status).toBe(403);
    expect(members.html).toContain("Not yours to set up");

    const desk = await deskMember(s, "frontdesk");
    for (const path of ["/office/setup", `/office/setup/people/${person(s, 0)}`, "/office/setup/members"]) {
      const res = await page(path, desk.cookie);
      expect(res.status, path).toBe(403);
      expect(res.html).toContain("Not yours to set up");
    }
    expect((await page("/office", desk.cookie)).html).not.toContain('href="/office/setup"');
  });

  it("a cross-site post is a 403 page and changes nothing; German words when asked", async () => {
    const s = await salon(1);
    const staff = await deskMember(s, "staff");
    const mine = `/office/setup/people/${person(s, 0)}`;
    const before = await providerOf(s.apiKey, person(s, 0));
    const res = await office("POST", `${mine}/hours`, {
      cookie: staff.cookie,
      form: { "mon.0": "10:00–11:00" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(await providerOf(s.apiKey, person(s, 0))).toEqual(before);
    const german = await page(mine, staff.cookie, { "Accept-Language": "de" });
    expect(german.status).toBe(200);
    for (const text of ['lang="de"', "Wöchentliche Arbeitszeiten", "Meine Zeiten", "Montag", "Freie Tage"]) {
      expect(german.html, text).toContain(text);
    }
  });
});

describe("an owner's setup", () => {
  it("lists the people and members; invites a member and disables one", async () => {
    const s = await salon(2);
    const owner = await deskMember(s, "owner");
    const start = await page("/office/setup", owner.cookie);
    expect(start.status).toBe(200);
    for (const text of ["Stylist 0", "Stylist 1", 'href="/office/setup/members"', "Webhooks", ">Setup<"]) {
      expect(start.html, text).toContain(text);
    }
    expect((await page(`/office/setup/people/${person(s, 1)}`, owner.cookie)).status).toBe(200);

    const missing = await office("POST", "/office/setup/members", {
      cookie: owner.cookie,
      form: { name: "Nora New", email: "nora@example.com", role: "staff", providerId: "" },
    });
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain("A staff member needs");
    const invited = await office("POST", "/office/setup/members", {
      cookie: owner.cookie,
      form: { name: "Nora New", email: "Nora@Example.com", role: "staff", providerId: person(s, 1) },
    });
    expect(invited.status).toBe(303);
    const nora = (await membersOf(s.apiKey)).find((m: { email: string }) => m.email === "nora@example.com");
    expect(nora).toMatchObject({ name: "Nora New", role: "staff", status: "invited", providerId: person(s, 1) });
    const listed = await page("/office/setup/members?done=invited", owner.cookie);
    expect(listed.html).toContain("Member invited.");
    expect(listed.html).toContain("nora@example.com");
    const again = await office("POST", "/office/setup/members", {
      cookie: owner.cookie,
      form: { name: "Nora Two", email: "nora@example.com", role: "frontdesk" },
    });
    expect(again.status).toBe(409);

    const disabled = await office("POST", `/office/setup/members/${nora.id}/status`, {
      cookie: owner.cookie,
      form: { status: "disabled" },
    });
    expect(disabled.status).toBe(303);
    expect(await json(await api("GET", `/members/${nora.id}`, { key: s.apiKey }))).toMatchObject({
      status: "disabled",
    });
    const role = await office("POST", `/office/setup/members/${nora.id}/role`, {
      cookie: owner.cookie,
      form: { role: "frontdesk", providerId: person(s, 1) },
    });
    expect(role.status).toBe(303);
    expect(await json(await api("GET", `/members/${nora.id}`, { key: s.apiKey }))).toMatchObject({
      role: "frontdesk",
      providerId: null,
    });
  });

  it("the last active owner's demotion is refused with the reason, and they stay owner", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const res = await office("POST", `/office/setup/members/${owner.id}/role`, {
      cookie: owner.cookie,
      form: { role: "frontdesk", providerId: "" },
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("A business keeps at least one active owner");
    expect(await json(await api("GET", `/members/${owner.id}`, { key: s.apiKey }))).toMatchObject({
      role: "owner",
      status: "active",
    });
  });
});
