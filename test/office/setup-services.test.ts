/**
 * The owner's services pages: a service added and changed from the office is the API's (every
 * scalar field, people, rooms, hours, reminders, limits), the audit names the member, it is
 * deactivated and listed as inactive; a bad field is a 422 page naming it with nothing changed;
 * the pages are the owner's alone and cross-site posts are refused. German words when asked.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";
import { formOf } from "./setup-forms";

const serviceOf = async (key: string, id: string) => json(await api("GET", `/services/${id}`, { key }));
const auditOf = async (key: string, id: string) =>
  (await json(await api("GET", `/audit-events?resourceId=${id}`, { key }))).data;

describe("the services pages", () => {
  it("add a service with its fields, change it and deactivate it, the member the audit's actor", async () => {
    const s = await salon(2);
    const owner = await deskMember(s, "owner");
    const list = await page("/office/setup/services", owner.cookie);
    expect(list.status).toBe(200);
    expect(list.html).toContain("Cut");
    expect((await page("/office/setup", owner.cookie)).html).toContain('href="/office/setup/services"');
    const form = await formOf("/office/setup/services/new", owner.cookie, {
      name: "Beard trim",
      description: "Shape & trim.",
      durationMinutes: "20",
      capacity: "2",
      bufferAfterMinutes: "5",
      minNoticeMinutes: "60",
      maxAdvanceDays: "30",
      cancellationNoticeMinutes: "1440",
      "tue.0": "",
      [`providerIds.${s.providerIds[1]}`]: "on",
      providerMode: "one",
      assignment: "balanced",
      bookableOnline: "on",
      "limits.perDay": "8",
      maxActivePerCustomer: "2",
      reminders: "1440, 60",
    });
    const created = await office("POST", "/office/setup/services", { cookie: owner.cookie, form });
    expect(created.status).toBe(303);
    const id = /\/office\/setup\/services\/(svc_\w+)\?done=created/.exec(created.headers.get("Location") ?? "")?.[1];
    expect(id).toBeDefined();
    const service = await serviceOf(s.apiKey, id as string);
    expect(service).toMatchObject({
      name: "Beard trim",
      description: "Shape & trim.",
      durationMinutes: 20,
      slotIntervalMinutes: 20,
      capacity: 2,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 5,
      minNoticeMinutes: 60,
      maxAdvanceDays: 30,
      cancellationNoticeMinutes: 1440,
      providerIds: [s.providerIds[1]],
      assignment: "balanced",
      bookableOnline: true,
      requiresConfirmation: false,
      limits: { perDay: 8, perWeek: null },
      maxActivePerCustomer: 2,
      reminders: [{ offsetMinutes: 1440 }, { offsetMinutes: 60 }],
      active: true,
    });
    expect(service.weeklySchedule.mon).toEqual([{ start: "09:00", end: "17:00" }]);
    expect(service.weeklySchedule.tue).toEqual([]);
    expect((await auditOf(s.apiKey, id as string))[0]).toMatchObject({
      actor: { type: "member", id: owner.id },
      action: "service.created",
    });

    const path = `/office/setup/services/${id}`;
    const edit = await formOf(path, owner.cookie, { capacity: "3", bookableOnline: undefined, reminders: "30" });
    const changed = await office("POST", path, { cookie: owner.cookie, form: edit });
    expect(changed.status).toBe(303);
    expect(changed.headers.get("Location")).toBe(`${path}?done=saved`);
    expect(await serviceOf(s.apiKey, id as string)).toMatchObject({
      capacity: 3,
      bookableOnline: false,
      reminders: [{ offsetMinutes: 30 }],
      durationMinutes: 20,
    });
    const [update] = await auditOf(s.apiKey, id as string);
    expect(update).toMatchObject({ actor: { type: "member", id: owner.id }, action: "service.updated" });
    expect([...update.fields].sort()).toEqual(["bookableOnline", "capacity", "reminders"]);

    const off = await office("POST", `${path}/active`, { cookie: owner.cookie, form: { active: "false" } });
    expect(off.headers.get("Location")).toBe(`${path}?done=deactivated`);
    expect((await serviceOf(s.apiKey, id as string)).active).toBe(false);
    const listed = (await page("/office/setup/services", owner.cookie)).html;
    expect(listed.slice(listed.indexOf("Inactive services"))).toContain("Beard trim");
  });

  it("a service's form keeps every interval it has (four on a Monday), and sending it unchanged changes nothing", async () => {
    const s = await salon(2);
    const owner = await deskMember(s, "owner");
    const four = ["08:00", "10:00", "12:00", "14:00"].map((start, i) => ({
      start,
      end: `${9 + 2 * i}`.padStart(2, "0") + ":00",
    }));
    // Monday only: the other days are absent, as the API stores a partial week.
    const patched = await api("PATCH", `/services/${s.cut}`, {
      key: s.apiKey,
      body: { weeklySchedule: { mon: four } },
    });
    expect(patched.status).toBe(200);
    const before = (await auditOf(s.apiKey, s.cut)).length;
    const path = `/office/setup/services/${s.cut}`;
    const form = await formOf(path, owner.cookie);
    expect(form["mon.3"]).toBe("14:00–15:00");
    const same = await office("POST", path, { cookie: owner.cookie, form });
    expect(same.status).toBe(303);
    expect((await auditOf(s.apiKey, s.cut)).length).toBe(before);
    const renamed = await office("POST", path, { cookie: owner.cookie, form: { ...form, name: "Cut & style" } });
    expect(renamed.status).toBe(303);
    const service = await serviceOf(s.apiKey, s.cut);
    expect(service.name).toBe("Cut & style");
    expect(service.weeklySchedule.mon).toEqual(four);
    expect((await auditOf(s.apiKey, s.cut))[0].fields).toEqual(["name"]);
  });

  it("a bad field is a 422 page naming it, and nothing is added or changed", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const count = async () => (await json(await api("GET", "/services", { key: s.apiKey }))).data.length;
    const before = await count();
    for (const [changes, field] of [
      [{ durationMinutes: "twenty" }, "s-durationMinutes"],
      [{ durationMinutes: "0" }, "s-durationMinutes"],
      [{ timezone: "Mars/Olympus" }, "s-timezone"],
      [{ "wed.0": "9 to 5" }, "s-wed-0"],
      [{ reminders: "soon" }, "s-reminders"],
      [{ "limits.perDay": "0" }, "s-limits-perDay"],
    ] as const) {
      const form = await formOf("/office/setup/services/new", owner.cookie, { name: "Not Added", ...changes });
      const res = await office("POST", "/office/setup/services", { cookie: owner.cookie, form });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      expect(html, field).toContain(`id="${field}-err"`);
      expect(html).toContain("Nothing was saved");
      expect(html).toContain('value="Not Added"');
    }
    expect(await count()).toBe(before);
    const path = `/office/setup/services/${s.cut}`;
    const stored = await serviceOf(s.apiKey, s.cut);
    const res = await office("POST", path, {
      cookie: owner.cookie,
      form: await formOf(path, owner.cookie, { name: "Renamed", capacity: "-1" }),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('id="s-capacity-err"');
    expect(await serviceOf(s.apiKey, s.cut)).toEqual(stored);
  });

  it("are the owner's: the front desk and staff get the 403 page, a cross-site post adds nothing; German", async () => {
    const s = await salon(1);
    const stored = await serviceOf(s.apiKey, s.cut);
    for (const role of ["frontdesk", "staff"] as const) {
      const member = await deskMember(s, role);
      for (const path of ["/office/setup/services", "/office/setup/services/new", `/office/setup/services/${s.cut}`]) {
        const shown = await page(path, member.cookie);
        expect(shown.status, `${role} ${path}`).toBe(403);
        expect(shown.html).toContain("Not yours to set up");
      }
      const post = await office("POST", `/office/setup/services/${s.cut}/active`, {
        cookie: member.cookie,
        form: { active: "false" },
      });
      expect(post.status, role).toBe(403);
    }
    const owner = await deskMember(s, "owner");
    const cross = await office("POST", `/office/setup/services/${s.cut}/active`, {
      cookie: owner.cookie,
      form: { active: "false" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(cross.status).toBe(403);
    expect(await serviceOf(s.apiKey, s.cut)).toEqual(stored);
    const german = await page(`/office/setup/services/${s.cut}`, owner.cookie, { "Accept-Language": "de" });
    for (const text of ["Leistung speichern", "Dauer (Minuten)", "Deaktivieren", "Montag"]) {
      expect(german.html, text).toContain(text);
    }
  });
});
