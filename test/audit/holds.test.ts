/**
 * Holds in the audit: a hold placed (with a key, by a signed-in member, on a booking page) is
 * recorded in the batch that adds its D1 row and taken back with it when the calendar refuses;
 * a release is recorded in the batch that tells D1 the hold ended, once. A hold that runs out by
 * itself writes nothing.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar";
import { auditEvents, holds } from "../../src/db/schema";
import { memberOf } from "../support/access";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, book, bookingBody, calendarStub } from "../support/bookings";
import { eventually } from "../support/eventually";
import { expireHold, hold, placeHold } from "../support/fixtures";
import { asMember, signIn } from "../support/members";
import { heldOnPage, pageBusiness } from "../support/public";
import type { ServiceCalendar as TestServiceCalendar } from "../support/worker";

type Entry = { action: string; actor: { type: string; id: string }; resource: { type: string; id: string } };

/** A business, its first key and that key's id, and a one-seat service. */
async function setup() {
  const { apiKey: key, businessId } = await createAccount();
  const service = await createService(key, { capacity: 1 });
  const keyId = (await json(await api("GET", "/api-keys", { key }))).data[0].id as string;
  return { key, keyId, businessId, serviceId: service.id as string };
}

const recordsOf = async (key: string, query: string): Promise<(Entry & { fields: string[] })[]> => {
  const res = await api("GET", `/audit-events?${query}&limit=100`, { key });
  expect(res.status).toBe(200);
  return (await json(res)).data;
};

/** The actions of every hold record of the business. */
const holdActions = async (key: string) =>
  (await recordsOf(key, "page=1")).map((r) => r.action).filter((action) => action.startsWith("hold."));

describe("holds placed and released", () => {
  it("with a key: created and released name the key, the hold and field names; a second DELETE adds nothing", async () => {
    const s = await setup();
    const placed = await hold(s.key, s.serviceId, at(3, "10:00"));
    expect((await api("DELETE", `/holds/${placed.id}`, { key: s.key })).status).toBe(204);
    expect((await api("DELETE", `/holds/${placed.id}`, { key: s.key })).status).toBe(204);
    const records = await recordsOf(s.key, `resourceId=${placed.id}`);
    expect(records).toEqual([
      expect.objectContaining({
        action: "hold.released",
        actor: { type: "apiKey", id: s.keyId },
        resource: { type: "hold", id: placed.id },
        fields: ["status"],
      }),
      expect.objectContaining({
        action: "hold.created",
        actor: { type: "apiKey", id: s.keyId },
        resource: { type: "hold", id: placed.id },
        fields: ["endTime", "serviceId", "startTime", "ttlSeconds"],
      }),
    ]);
  });

  it("by a signed-in member: the member is the actor", async () => {
    const s = await setup();
    const email = `owner.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const owner = await memberOf(s.key, { role: "owner", email });
    const cookie = await signIn(email);
    const res = await asMember("POST", "/holds", cookie, {
      serviceId: s.serviceId,
      startTime: at(3, "11:00"),
      endTime: at(3, "11:30"),
    });
    expect(res.status).toBe(201);
    const placed = await json(res);
    expect((await asMember("DELETE", `/holds/${placed.id}`, cookie)).status).toBe(204);
    const records = await recordsOf(s.key, `resourceId=${placed.id}`);
    expect(records.map((r) => [r.action, r.actor])).toEqual([
      ["hold.released", { type: "member", id: owner.id }],
      ["hold.created", { type: "member", id: owner.id }],
    ]);
  });

  it("on a booking page: the customer is the actor, named by the hold's id", async () => {
    const f = await pageBusiness();
    const placed = await heldOnPage(f.slug, f.serviceId, at(3, "10:00"), "198.51.100.77");
    const records = await recordsOf(f.apiKey, `resourceId=${placed.id}`);
    expect(records.map((r) => [r.action, r.actor])).toEqual([["hold.created", { type: "customer", id: placed.id }]]);
  });

  it("a hold that runs out by itself writes no record", async () => {
    const s = await setup();
    const placed = await hold(s.key, s.serviceId, at(3, "12:00"));
    await expireHold(s.businessId, s.serviceId, placed.id);
    expect((await json(await api("GET", `/holds/${placed.id}`, { key: s.key }))).status).toBe("EXPIRED");
    // A DELETE of a hold already ended releases nothing, so it is not recorded either.
    expect((await api("DELETE", `/holds/${placed.id}`, { key: s.key })).status).toBe(204);
    expect((await recordsOf(s.key, `resourceId=${placed.id}`)).map((r) => r.action)).toEqual(["hold.created"]);
  });
});

describe("nothing recorded for a hold refused", () => {
  it("a taken time (refused by the calendar after the D1 row was added) and a bad body leave no hold record", async () => {
    const s = await setup();
    const start = at(3, "13:00");
    await book(s.key, bookingBody(s.serviceId, start));
    const taken = await placeHold(s.key, s.serviceId, start);
    expect(taken.status).toBe(409);
    const bad = await api("POST", "/holds", { key: s.key, body: { serviceId: s.serviceId, startTime: "soon" } });
    expect(bad.status).toBe(422);
    expect(await holdActions(s.key)).toEqual([]);
    const rows = await db().select().from(holds).where(eq(holds.businessId, s.businessId));
    expect(rows).toEqual([]);
  });
});

describe("the same durability as the hold's D1 row", () => {
  it("the calendar's release lost before D1 heard of it: its alarm writes the record; the DELETE sent again ends the row and records nothing more", async () => {
    const s = await setup();
    const placed = await hold(s.key, s.serviceId, at(3, "14:00"));
    const stub = calendarStub(s.businessId, s.serviceId);
    await runInDurableObject(stub, (instance: ServiceCalendar) => {
      (instance as unknown as TestServiceCalendar).faults.audit = "lost";
    });
    // The calendar released it and kept its record; the request died before D1 heard of either.
    const lost = await api("DELETE", `/holds/${placed.id}`, { key: s.key });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    await lost.body?.cancel();
    const [before] = await db().select().from(holds).where(eq(holds.id, placed.id));
    expect(before?.endedAt).toBeNull();
    expect(await holdActions(s.key)).toEqual(["hold.created"]);
    await runInDurableObject(stub, (instance: ServiceCalendar) => {
      (instance as unknown as TestServiceCalendar).faults.audit = undefined;
    });
    await runDurableObjectAlarm(stub);
    await eventually(
      async () => ((await holdActions(s.key)).includes("hold.released") ? true : undefined),
      "the calendar's record of the release",
    );

    expect((await api("DELETE", `/holds/${placed.id}`, { key: s.key })).status).toBe(204);
    expect((await api("DELETE", `/holds/${placed.id}`, { key: s.key })).status).toBe(204);
    const [after] = await db().select().from(holds).where(eq(holds.id, placed.id));
    expect(after?.endedAt).not.toBeNull();
    const stored = await db().select().from(auditEvents).where(eq(auditEvents.resourceId, placed.id));
    expect(stored.map((r) => r.action).sort()).toEqual(["hold.created", "hold.released"]);
  });
});
