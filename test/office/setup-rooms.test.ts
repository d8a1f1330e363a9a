/**
 * The owner's rooms pages: a room added and changed from the office is the API's resource (its
 * units and own hours), the audit names the member, a service's page then offers it, it is
 * deactivated and listed as inactive; a bad field is a 422 page naming it with nothing changed;
 * the pages are the owner's alone and cross-site posts are refused. German words when asked, a
 * German page's problems included.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { salon } from "../support/fixtures";
import { office } from "../support/members";
import { deskMember, page } from "../support/office";
import { formOf } from "./setup-forms";

const roomOf = async (key: string, id: string) => json(await api("GET", `/resources/${id}`, { key }));
const roomsOf = async (key: string) => [
  ...(await json(await api("GET", "/resources", { key }))).data,
  ...(await json(await api("GET", "/resources?active=false", { key }))).data,
];

describe("the rooms pages", () => {
  it("add a room with its own hours, change it and deactivate it, the member the audit's actor", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    expect((await page("/office/setup", owner.cookie)).html).toContain('href="/office/setup/rooms"');
    expect((await page("/office/setup/rooms", owner.cookie)).html).toContain("No active rooms.");
    const form = await formOf("/office/setup/rooms/new", owner.cookie, {
      name: "Treatment room",
      quantity: "2",
      ownHours: "on",
      "mon.0": "08:00–12:00",
    });
    const created = await office("POST", "/office/setup/rooms", { cookie: owner.cookie, form });
    expect(created.status).toBe(303);
    const id = /\/office\/setup\/rooms\/(res_\w+)\?done=created/.exec(created.headers.get("Location") ?? "")?.[1];
    expect(id).toBeDefined();
    const room = await roomOf(s.apiKey, id as string);
    expect(room).toMatchObject({ name: "Treatment room", quantity: 2, active: true });
    expect(room.weeklySchedule.mon).toEqual([{ start: "08:00", end: "12:00" }]);
    const audit = async () => (await json(await api("GET", `/audit-events?resourceId=${id}`, { key: s.apiKey }))).data;
    expect((await audit())[0]).toMatchObject({ actor: { type: "member", id: owner.id }, action: "resource.created" });
    expect((await page(`/office/setup/services/${s.cut}`, owner.cookie)).html).toContain(`resourceIds.${id}`);

    const path = `/office/setup/rooms/${id}`;
    const edit = await formOf(path, owner.cookie, { quantity: "3", ownHours: undefined });
    const changed = await office("POST", path, { cookie: owner.cookie, form: edit });
    expect(changed.headers.get("Location")).toBe(`${path}?done=saved`);
    expect(await roomOf(s.apiKey, id as string)).toMatchObject({ quantity: 3, weeklySchedule: null });
    const [update] = await audit();
    expect(update).toMatchObject({ actor: { type: "member", id: owner.id }, action: "resource.updated" });
    expect([...update.fields].sort()).toEqual(["quantity", "weeklySchedule"]);

    const off = await office("POST", `${path}/active`, { cookie: owner.cookie, form: { active: "false" } });
    expect(off.headers.get("Location")).toBe(`${path}?done=deactivated`);
    expect((await roomOf(s.apiKey, id as string)).active).toBe(false);
    const listed = (await page("/office/setup/rooms", owner.cookie)).html;
    expect(listed.slice(listed.indexOf("Inactive rooms"))).toContain("Treatment room");
  });

  it("deactivating a room an upcoming booking holds is refused with the reason, and it stays active", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const room = await json(
      await api("POST", "/resources", { key: s.apiKey, body: { name: "Chair", timezone: "UTC" } }),
    );
    await api("PATCH", `/services/${s.cut}`, { key: s.apiKey, body: { resourceIds: [room.id] } });
    await book(s.apiKey, bookingBody(s.cut, at(2, "10:00"), { providerId: s.providerIds[0] }));
    const res = await office("POST", `/office/setup/rooms/${room.id}/active`, {
      cookie: owner.cookie,
      form: { active: "false" },
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('role="alert"');
    expect((await roomOf(s.apiKey, room.id)).active).toBe(true);
  });

  it("a bad field is a 422 page naming it, and nothing is added or changed", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    for (const [changes, field] of [
      [{ quantity: "many" }, "s-quantity"],
      [{ quantity: "0" }, "s-quantity"],
      [{ name: "" }, "s-name"],
      [{ ownHours: "on", "thu.0": "18:00–09:00" }, "s-thu-0"],
    ] as const) {
      const form = await formOf("/office/setup/rooms/new", owner.cookie, { name: "Not Added", ...changes });
      const res = await office("POST", "/office/setup/rooms", { cookie: owner.cookie, form });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      expect(html, field).toContain(`id="${field}-err"`);
      expect(html).toContain("Nothing was saved");
    }
    expect(await roomsOf(s.apiKey)).toEqual([]);
  });

  it("on a German page a bad field is named in German, the API's own sentences too", async () => {
    const s = await salon(1);
    const owner = await deskMember(s, "owner");
    const de = { "Accept-Language": "de" };
    const cases: [Record<string, string>, string, string][] = [
      [{ name: "" }, "s-name", "Bitte ausfüllen."],
      [{ quantity: "0" }, "s-quantity", "Mindestens 1."],
      [{ timezone: "Mars/Olympus" }, "s-timezone", "Verwenden Sie den Namen einer IANA-Zeitzone wie Europe/Berlin."],
      [{ ownHours: "on", "thu.0": "18:00–09:00" }, "s-thu-0", "Das Ende muss nach dem Beginn liegen"],
    ];
    for (const [changes, field, words] of cases) {
      const form = await formOf("/office/setup/rooms/new", owner.cookie, { name: "Nicht angelegt", ...changes });
      const res = await office("POST", "/office/setup/rooms", { cookie: owner.cookie, form, headers: de });
      expect(res.status, field).toBe(422);
      const html = await res.text();
      const problem = new RegExp(`id="${field}-err">([^<]*)<`).exec(html)?.[1];
      expect(problem, field).toContain(words);
      expect(html).toContain("Nichts wurde gespeichert");
    }
    expect(await roomsOf(s.apiKey)).toEqual([]);
  });

  it("are the owner's: the front desk and staff get the 403 page, a cross-site post adds nothing; German", async () => {
    const s = await salon(1);
    for (const role of ["frontdesk", "staff"] as const) {
      const member = await deskMember(s, role);
      for (const path of ["/office/setup/rooms", "/office/setup/rooms/new"]) {
        const shown = await page(path, member.cookie);
        expect(shown.status, `${role} ${path}`).toBe(403);
        expect(shown.html).toContain("Not yours to set up");
      }
      const post = await office("POST", "/office/setup/rooms", { cookie: member.cookie, form: { name: "Mine" } });
      expect(post.status, role).toBe(403);
    }
    const owner = await deskMember(s, "owner");
    const cross = await office("POST", "/office/setup/rooms", {
      cookie: owner.cookie,
      form: { name: "Cross Site", quantity: "1", timezone: "UTC" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(cross.status).toBe(403);
    expect(await roomsOf(s.apiKey)).toEqual([]);
    const german = await page("/office/setup/rooms/new", owner.cookie, { "Accept-Language": "de" });
    for (const text of ["Raum hinzufügen", "Öffnungszeiten", "Montag"]) expect(german.html, text).toContain(text);
  });
});
