/**
 * Waitlist entries in the audit: a join is recorded in the batch that adds the entry's D1 row (and
 * taken back with it when the calendar refuses), a leave once, whoever sends it again; field
 * names only, never the customer's name or e-mail.
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar";
import { auditEvents, holds } from "../../src/db/schema";
import { api, db, json } from "../support/api";
import { at, calendarStub, plus } from "../support/bookings";
import { eventually } from "../support/eventually";
import { fullSlot, join, joinBody } from "../support/waitlist";
import type { ServiceCalendar as TestServiceCalendar } from "../support/worker";

type Entry = { action: string; actor: { type: string; id: string }; resource: { type: string; id: string } };

const keyIdOf = async (key: string) => (await json(await api("GET", "/api-keys", { key }))).data[0].id as string;

const recordsOf = async (key: string, resourceId: string): Promise<(Entry & { at: string; fields: string[] })[]> =>
  (await json(await api("GET", `/audit-events?resourceId=${resourceId}&limit=100`, { key }))).data;

/** The actions of every waitlist record of the business but the system's offers. */
const waitlistActions = async (key: string) =>
  ((await json(await api("GET", "/audit-events?limit=100", { key }))).data as Entry[])
    .map((r) => r.action)
    .filter((action) => action === "waitlist.joined" || action === "waitlist.left");

describe("entries joined and left", () => {
  it("with a key: joined and left name the key and the entry, field names only; a second DELETE adds nothing", async () => {
    const s = await fullSlot(1);
    const keyId = await keyIdOf(s.apiKey);
    const body = joinBody(s, { customerName: "Rosa Audit-Parks" });
    const entry = await join(s.apiKey, body);
    expect((await api("DELETE", `/waitlist/${entry.id}`, { key: s.apiKey })).status).toBe(204);
    expect((await api("DELETE", `/waitlist/${entry.id}`, { key: s.apiKey })).status).toBe(204);
    const records = await recordsOf(s.apiKey, entry.id);
    expect(records).toEqual([
      expect.objectContaining({
        action: "waitlist.left",
        actor: { type: "apiKey", id: keyId },
        resource: { type: "waitlist", id: entry.id },
        fields: ["status"],
      }),
      expect.objectContaining({
        action: "waitlist.joined",
        actor: { type: "apiKey", id: keyId },
        resource: { type: "waitlist", id: entry.id },
        fields: ["customerEmail", "customerName", "endTime", "serviceId", "startTime"],
      }),
    ]);
    const stored = JSON.stringify(
      await db().select().from(auditEvents).where(eq(auditEvents.resourceId, entry.id)),
    ).toLowerCase();
    expect(stored).not.toContain(body.customerEmail.toLowerCase());
    expect(stored).not.toContain("rosa");
  });

  it("a join sent twice with one Idempotency-Key: one entry, one record", async () => {
    const s = await fullSlot(1);
    const body = joinBody(s);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await api("POST", "/waitlist", { key: s.apiKey, body, headers });
    const second = await api("POST", "/waitlist", { key: s.apiKey, body, headers });
    expect([first.status, second.status]).toEqual([201, 201]);
    const [a, b] = [await json(first), await json(second)];
    expect(b.id).toBe(a.id);
    expect(await waitlistActions(s.apiKey)).toEqual(["waitlist.joined"]);
  });
});

describe("nothing recorded for a join refused", () => {
  it("a free slot, a bad body, and a time the calendar refuses after the D1 row was added leave no record", async () => {
    const s = await fullSlot(1);
    const free = await api("POST", "/waitlist", {
      key: s.apiKey,
      body: joinBody(s, { startTime: at(2, "11:00"), endTime: at(2, "11:30") }),
    });
    expect(free.status).toBe(409);
    const bad = await api("POST", "/waitlist", { key: s.apiKey, body: { serviceId: s.serviceId } });
    expect(bad.status).toBe(422);
    const night = at(2, "03:00");
    const closed = await api("POST", "/waitlist", {
      key: s.apiKey,
      body: joinBody(s, { startTime: night, endTime: plus(night, 30) }),
    });
    expect(closed.status).toBe(409);
    expect((await json(closed)).reason).toBe("outside_working_hours");
    expect(await waitlistActions(s.apiKey)).toEqual([]);
  });
});

describe("a leave recorded once, whoever sends it again", () => {
  it("the calendar lost after taking the entry off, before its record reached D1: its alarm writes it, at the time it left; a DELETE sent again adds none", async () => {
    const s = await fullSlot(1);
    const entry = await join(s.apiKey, joinBody(s));
    const stub = calendarStub(s.businessId, s.serviceId);
    const setLost = (lost: boolean) =>
      runInDurableObject(stub, (instance: ServiceCalendar) => {
        (instance as unknown as TestServiceCalendar).faults.audit = lost ? "lost" : undefined;
      });
    await setLost(true);
    const lost = await api("DELETE", `/waitlist/${entry.id}`, { key: s.apiKey });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    await lost.body?.cancel();
    expect(await waitlistActions(s.apiKey)).toEqual(["waitlist.joined"]);
    const left = await json(await api("GET", `/waitlist/${entry.id}`, { key: s.apiKey }));
    expect(left.status).toBe("CANCELLED");
    await setLost(false);
    await runDurableObjectAlarm(stub);
    const [kept] = await eventually(async () => {
      const found = await recordsOf(s.apiKey, entry.id);
      return found.length > 0 ? found : undefined;
    }, "the calendar's record of the leave");
    expect(kept).toMatchObject({ action: "waitlist.left", at: left.updatedAt, actor: { type: "apiKey" } });
    expect((await api("DELETE", `/waitlist/${entry.id}`, { key: s.apiKey })).status).toBe(204);
    expect((await api("DELETE", `/waitlist/${entry.id}`, { key: s.apiKey })).status).toBe(204);
    const [record] = await recordsOf(s.apiKey, entry.id);
    expect(record).toMatchObject({ action: "waitlist.left", at: left.updatedAt });
    expect(await waitlistActions(s.apiKey)).toEqual(["waitlist.left", "waitlist.joined"]);
  });

  it("an offered entry left in the calendar before a reset: the DELETE sent again ends its hold in D1 too", async () => {
    const s = await fullSlot(1);
    const entry = await join(s.apiKey, joinBody(s));
    const booked = s.bookings[0] as { id: string };
    expect((await api("POST", `/bookings/${booked.id}/cancel`, { key: s.apiKey, body: {} })).status).toBe(200);
    const offered = await json(await api("GET", `/waitlist/${entry.id}`, { key: s.apiKey }));
    expect(offered.status).toBe("OFFERED");
    const liveHold = () => db().select().from(holds).where(eq(holds.id, offered.holdId));
    expect((await liveHold())[0]?.endedAt).toBeNull();
    // The calendar took it off and released the hold; the request died before D1 heard of it.
    await calendarStub(s.businessId, s.serviceId).leaveWaitlist(entry.id, {
      businessId: s.businessId,
      actor: { type: "apiKey", id: "key_lost" },
    });
    expect((await api("DELETE", `/waitlist/${entry.id}`, { key: s.apiKey })).status).toBe(204);
    expect((await liveHold())[0]?.endedAt).not.toBeNull();
  });
});
