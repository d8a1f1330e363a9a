/**
 * Moving a business to another shard (src/relocations): its rows are copied while its writes are held,
 * the directory switches, the old rows are deleted; a crash at any step is re-driven by the
 * move's alarm to the same end, nothing answered 2xx is lost, and no shard but one answers for
 * the business at any moment.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { serviceCalendarOf } from "../../src/calendar/stubs";
import { RELOCATED_TABLES } from "../../src/relocations/rows";
import { batchesByShard } from "../../src/shards/every";
import { businessEnv } from "../../src/shards/shards";
import { api, json, shardOf } from "../support/api";
import { at, bookingBody, calendarStub, freshEmail, postBooking, statusCounts } from "../support/bookings";
import {
  admin,
  bindingOf,
  businessOn,
  driveRelocation,
  relocationStub,
  rowsOf,
  startRelocation,
} from "../support/shards";
import type { BusinessRelocation } from "../support/worker";

/** The message of the error a calendar call is refused with (null: it was answered). */
async function refusal(call: () => Promise<unknown>): Promise<string | null> {
  try {
    await call();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** What a client sees after a move of what it saw before: the same, its business naming its new shard. */
const movedView = (shown: Awaited<ReturnType<typeof seen>>) => ({
  ...shown,
  business: { ...shown.business, shard: 1 },
});

/** What a client sees of its business: the lists it reads, compared before and after a move. */
async function seen(key: string) {
  const read = async (path: string) => {
    // A read from an isolate that knew the old shard answers one 503, then from the new shard.
    let res = await api("GET", path, { key });
    if (res.status === 503) res = await api("GET", path, { key });
    expect(res.status).toBe(200);
    return json(res);
  };
  return {
    bookings: await read("/bookings?limit=100"),
    customers: await read("/customers?limit=100"),
    search: await read("/customers?search=customer"),
    services: await read("/services"),
    business: await read("/business"),
  };
}

/** A tenant with more than `businessOn` gives: a second booking, cancelled, and a customer of its own. */
async function crowdedBusiness(name: string) {
  const t = await businessOn(0, name);
  const second = await json(await postBooking(t.apiKey, bookingBody(t.serviceId, at(5, "11:00"))));
  expect((await api("POST", `/bookings/${second.id}/cancel`, { key: t.apiKey, body: {} })).status).toBe(200);
  const customer = { name: "A customer of its own", email: freshEmail() };
  expect((await api("POST", "/customers", { key: t.apiKey, body: customer })).status).toBe(201);
  return t;
}

/** The business's rows on the new shard are the old shard's; the old one keeps only its forwarding rows. */
async function expectMoved(businessId: string, before: Record<string, number>) {
  expect(await shardOf(businessId)).toBe(1);
  expect(await rowsOf(1, businessId)).toEqual(before);
  expect(await rowsOf(0, businessId)).toEqual({ businesses: 1, api_keys: before.api_keys });
  const forwarding = await env.DB_0.prepare("SELECT shard, move_state, slug FROM businesses WHERE id = ?")
    .bind(businessId)
    .first();
  expect(forwarding).toEqual({ shard: 1, move_state: null, slug: null });
  const home = await env.DB_1.prepare("SELECT shard, move_state FROM businesses WHERE id = ?").bind(businessId).first();
  expect(home).toEqual({ shard: 1, move_state: null });
}

describe("happy", () => {
  it("moves every row of a business to the other shard, and its clients read the same as before", async () => {
    const t = await crowdedBusiness("Moving house");
    const before = await rowsOf(0, t.businessId);
    const shown = await seen(t.apiKey);
    expect(await startRelocation(t.businessId, 1)).toMatchObject({ from: 0, to: 1, step: "hold" });
    expect(await driveRelocation(t.businessId)).toMatchObject({ step: "done", error: null });
    await expectMoved(t.businessId, before);
    expect(await seen(t.apiKey)).toEqual(movedView(shown));
    // The kept counts were copied as they were, and recounting the rows finds no drift.
    const report = await json(await admin("GET", "/reconcile"));
    expect(report.counts.drift.filter((d: { businessId: string }) => d.businessId === t.businessId)).toEqual([]);
  });

  it("after the move, a booking is written to the new shard only, and its calendar works there", async () => {
    const t = await businessOn(0, "Booking after the move");
    await startRelocation(t.businessId, 1);
    await driveRelocation(t.businessId);
    const res = await postBooking(t.apiKey, bookingBody(t.serviceId, at(6, "09:00")));
    expect(res.status).toBe(201);
    const { id } = await json(res);
    expect(await env.DB_1.prepare("SELECT status FROM bookings WHERE id = ?").bind(id).first()).toEqual({
      status: "CONFIRMED",
    });
    expect(await env.DB_0.prepare("SELECT 1 FROM bookings WHERE id = ?").bind(id).first()).toBeNull();
    const kept = await runInDurableObject(calendarStub(t.businessId, t.serviceId) as DurableObjectStub, (_o, state) =>
      state.storage.kv.get<number>("tenant-shard"),
    );
    expect(kept).toBe(1);
  });

  it("the operator reads where a move is, and a business can move back", async () => {
    const t = await businessOn(0, "There and back");
    const before = await rowsOf(0, t.businessId);
    await startRelocation(t.businessId, 1);
    await driveRelocation(t.businessId);
    expect(await json(await admin("GET", `/businesses/${t.businessId}/relocation`))).toMatchObject({
      from: 0,
      to: 1,
      step: "done",
    });
    await startRelocation(t.businessId, 0);
    await driveRelocation(t.businessId);
    expect(await shardOf(t.businessId)).toBe(0);
    expect(await rowsOf(0, t.businessId)).toEqual(before);
    expect(await rowsOf(1, t.businessId)).toEqual({ businesses: 1, api_keys: before.api_keys });
    const res = await postBooking(t.apiKey, bookingBody(t.serviceId, at(6, "10:00")));
    expect(res.status).toBe(201);
  });

  it("every table with a business's rows is moved", async () => {
    const { results } = await env.DB_0.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
       AND name NOT LIKE 'd1_%' AND name NOT LIKE 'customers_search%'`,
    ).all<{ name: string }>();
    // Members, their sessions, sign-in links and passkeys live in the directory only (docs/members.md):
    // a shard has the tables (every database gets every migration) and never a row in them.
    const directoryOnly = ["member_sessions", "members", "passkey_challenges", "passkeys", "sign_in_links"];
    const onShard = results.map((row) => row.name).filter((name) => !directoryOnly.includes(name));
    expect(RELOCATED_TABLES.map((table) => table.name).sort()).toEqual(onShard.sort());
    for (const table of directoryOnly) {
      const rows = await env.DB_0.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
      expect(rows?.n, table).toBe(0);
    }
  });

  it("a queued event of a business that moved since is delivered from its new shard", async () => {
    const t = await businessOn(0, "Event in the queue");
    const event = await env.DB_0.prepare("SELECT id FROM webhook_events WHERE business_id = ? LIMIT 1")
      .bind(t.businessId)
      .first<{ id: string }>();
    await startRelocation(t.businessId, 1);
    await driveRelocation(t.businessId);
    const message = { body: { eventId: event?.id as string, shard: 0 } } as Message<{ eventId: string; shard: number }>;
    const parts = await batchesByShard(env, { queue: "webhooks", messages: [message] } as unknown as MessageBatch<{
      eventId: string;
      shard: number;
    }>);
    expect([...parts.keys()]).toEqual([1]);
  });
});

describe("held", () => {
  it("while the rows are copied, writes answer 503 with Retry-After and reads are answered", async () => {
    const t = await businessOn(0, "Held while copying");
    const shown = await seen(t.apiKey);
    await startRelocation(t.businessId, 1);
    await driveRelocation(t.businessId, "copy");
    const write = await postBooking(t.apiKey, bookingBody(t.serviceId, at(7, "09:00")));
    expect(write.status).toBe(503);
    expect(write.headers.get("Retry-After")).toBe("2");
    expect(write.headers.get("Content-Type")).toContain("application/problem+json");
    expect((await json(write)).detail).toMatch(/moving to another database/);
    expect((await api("POST", "/customers", { key: t.apiKey, body: { name: "N", email: freshEmail() } })).status).toBe(
      503,
    );
    expect(await seen(t.apiKey)).toEqual(shown);
    await driveRelocation(t.businessId);
    expect((await postBooking(t.apiKey, bookingBody(t.serviceId, at(7, "09:00")))).status).toBe(201);
  });

  it("for the grace period writes are held but the calendars are not yet sealed", async () => {
    const t = await businessOn(0, "Grace period");
    await startRelocation(t.businessId, 1, 30);
    const stub = relocationStub(t.businessId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const move = await stub.status();
    expect(move).toMatchObject({ step: "grace", graceSeconds: 30 });
    const alarm = await runInDurableObject(stub as DurableObjectStub, (_o, state) => state.storage.getAlarm());
    expect(alarm).toBe(Date.parse(move?.heldAt as string) + 30_000);
    expect((await postBooking(t.apiKey, bookingBody(t.serviceId, at(7, "10:00")))).status).toBe(503);
    const held = await runInDurableObject(calendarStub(t.businessId, t.serviceId) as DurableObjectStub, (_o, state) =>
      state.storage.kv.get("tenant-held"),
    );
    expect(held).toBeUndefined();
    // The period ends (its start moved back, as if 30 s had passed): the move goes on to the end.
    await runInDurableObject(stub as DurableObjectStub, (_o, state) => {
      state.storage.kv.put("move", { ...move, heldAt: new Date(Date.now() - 31_000).toISOString() });
    });
    expect(await driveRelocation(t.businessId)).toMatchObject({ step: "done" });
    expect(await shardOf(t.businessId)).toBe(1);
  });

  it("a sealed calendar refuses changes, also after a reset, and answers reads", async () => {
    const t = await businessOn(0, "Sealed calendar");
    await startRelocation(t.businessId, 1);
    await driveRelocation(t.businessId, "copy");
    const stub = calendarStub(t.businessId, t.serviceId);
    await runInDurableObject(stub as DurableObjectStub, (_o, state) => state.abort("reset by a test")).catch(() => {});
    const tenant = businessEnv(env, 0);
    const calendar = serviceCalendarOf(tenant, t.businessId, t.serviceId);
    expect(await refusal(() => calendar.releaseHold("hold_none"))).toMatch(/Tenant moving/);
    expect(await calendar.snapshot()).toBeTruthy();
    await driveRelocation(t.businessId);
  });

  it("a calendar that moved refuses a call still carrying the old shard", async () => {
    const t = await businessOn(0, "Old shard refused");
    await startRelocation(t.businessId, 1);
    await driveRelocation(t.businessId);
    const stale = serviceCalendarOf(businessEnv(env, 0), t.businessId, t.serviceId);
    expect(await refusal(() => stale.snapshot())).toMatch(/Tenant moving/);
    const current = serviceCalendarOf(businessEnv(env, 1), t.businessId, t.serviceId);
    expect(await current.snapshot()).toBeTruthy();
  });

  it("bookings made during a move are either answered 201 and on the new shard, or 503 and nowhere", async () => {
    const t = await businessOn(0, "Storm during a move");
    await startRelocation(t.businessId, 1);
    const creates = Array.from({ length: 24 }, (_, i) =>
      postBooking(
        t.apiKey,
        bookingBody(t.serviceId, at(8 + Math.floor(i / 8), `${String(9 + (i % 8)).padStart(2, "0")}:00`)),
      ),
    );
    const [responses] = await Promise.all([Promise.all(creates), driveRelocation(t.businessId)]);
    const counts = statusCounts(responses);
    expect(Object.keys(counts).every((status) => status === "201" || status === "503")).toBe(true);
    const made = await Promise.all(responses.filter((r) => r.status === 201).map((r) => json(r)));
    for (const booking of made) {
      expect(await env.DB_1.prepare("SELECT id FROM bookings WHERE id = ?").bind(booking.id).first()).not.toBeNull();
    }
    const { results } = await env.DB_1.prepare("SELECT count(*) AS n FROM bookings WHERE business_id = ?")
      .bind(t.businessId)
      .all<{ n: number }>();
    // The booking businessOn made, and every 201.
    expect(results[0]?.n).toBe(made.length + 1);
    expect(await rowsOf(0, t.businessId)).toEqual({ businesses: 1, api_keys: 1 });
  });
});

/** Where a move can crash: each step before its work, and the points after a D1 write before the step records it. */
const CHECKPOINTS = [
  "hold",
  "grace",
  "seal",
  "seal:page",
  "copy",
  "copy:written",
  "switch",
  "switch:directory",
  "switch:old",
  "release",
  "release:page",
  "delete",
  "delete:written",
];

describe("faults", () => {
  it.each(CHECKPOINTS)("a move whose object resets at %s ends as one that did not", async (checkpoint) => {
    const t = await crowdedBusiness(`Reset at ${checkpoint}`);
    const before = await rowsOf(0, t.businessId);
    const shown = await seen(t.apiKey);
    await startRelocation(t.businessId, 1);
    const stub = relocationStub(t.businessId);
    await runInDurableObject(stub as unknown as DurableObjectStub<BusinessRelocation>, (move: BusinessRelocation) => {
      move.faults.failAt = checkpoint;
    });
    const done = await driveRelocation(t.businessId);
    expect(done).toMatchObject({ step: "done", error: null });
    await expectMoved(t.businessId, before);
    expect(await seen(t.apiKey)).toEqual(movedView(shown));
  });

  it("a failure is recorded and retried by the alarm", async () => {
    const t = await businessOn(0, "Recorded failure");
    await startRelocation(t.businessId, 1);
    await runInDurableObject(
      relocationStub(t.businessId) as unknown as DurableObjectStub<BusinessRelocation>,
      (move: BusinessRelocation) => {
        move.faults.failAt = "copy";
      },
    );
    const stub = relocationStub(t.businessId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const failed = await stub.status();
    expect(failed).toMatchObject({ step: "copy", attempts: 1 });
    expect(failed?.error).toMatch(/injected/);
    expect(await driveRelocation(t.businessId)).toMatchObject({ step: "done", error: null, attempts: 0 });
  });
});

describe("error", () => {
  it("refuses a move to the shard it is on, to no shard, of no business, or with a bad body", async () => {
    const t = await businessOn(0, "Refused moves");
    const same = await admin("POST", `/businesses/${t.businessId}/relocation`, { shard: 0 });
    expect(same.status).toBe(422);
    expect((await admin("POST", `/businesses/${t.businessId}/relocation`, { shard: 5 })).status).toBe(422);
    expect((await admin("POST", "/businesses/biz_00000000000000000000000000/relocation", { shard: 1 })).status).toBe(
      404,
    );
    expect((await admin("POST", `/businesses/${t.businessId}/relocation`, { shard: "one" })).status).toBe(422);
    expect((await admin("GET", `/businesses/${t.businessId}/relocation`)).status).toBe(404);
    expect(await rowsOf(1, t.businessId)).toEqual({});
  });

  it("a second move to another shard waits for the first to end", async () => {
    const t = await businessOn(0, "One move at a time");
    await startRelocation(t.businessId, 1);
    const again = await admin("POST", `/businesses/${t.businessId}/relocation`, { shard: 1, graceSeconds: 0 });
    expect(again.status).toBe(202);
    const back = await admin("POST", `/businesses/${t.businessId}/relocation`, { shard: 0 });
    expect(back.status).toBe(422);
    await driveRelocation(t.businessId);
  });
});

describe("security", () => {
  it("the move routes answer only to the admin token", async () => {
    const t = await businessOn(0, "Not without the token");
    expect((await admin("POST", `/businesses/${t.businessId}/relocation`, { shard: 1 }, "wrong")).status).toBe(401);
    expect((await admin("GET", `/businesses/${t.businessId}/relocation`, undefined, "wrong")).status).toBe(401);
    expect(await shardOf(t.businessId)).toBe(0);
  });

  it("while a business moves, another business on the same shard writes as usual", async () => {
    const moving = await businessOn(0, "The one moving");
    const staying = await businessOn(0, "The one staying");
    await startRelocation(moving.businessId, 1);
    await driveRelocation(moving.businessId, "copy");
    expect((await postBooking(staying.apiKey, bookingBody(staying.serviceId, at(9, "09:00")))).status).toBe(201);
    await driveRelocation(moving.businessId);
    expect(await rowsOf(1, staying.businessId)).toEqual({});
    expect(bindingOf(0)).toBe(env.DB_0);
  });
});
