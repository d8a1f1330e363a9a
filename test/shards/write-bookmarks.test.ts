/**
 * A keyed write's bookmark costs no statement (src/shards/session.ts): its Drizzle handle writes
 * through the request's D1 session, and a calendar that writes to D1 hands back its own session's
 * bookmark; the answer carries the later. Counted on the shard's binding, as the Worker calls it;
 * a calendar's write-behind uses its own binding and is not in the count.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import type { WriteBehind } from "../../src/calendar/d1/write-behind";
import { serviceCalendarOf } from "../../src/calendar/stubs";
import { api, json, origin } from "../support/api";
import { at, bookingBody } from "../support/bookings";
import { countingD1, type StatementCount } from "../support/d1-count";
import { businessOn } from "../support/shards";

const BOOKMARK = "X-D1-Bookmark";
const bookmarkShape = /^[0-9a-f]{8}(-[0-9a-f]{8}){2}-[0-9a-f]{32}$/;
const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

/** Sends a keyed POST through an env whose shard 1 counts into `count`; answers the response. */
async function countedPost(key: string, path: string, body: unknown, count: StatementCount): Promise<Response> {
  const counted = { ...env, DB_1: countingD1(env.DB_1, count) } as Env;
  const res = await app.fetch(
    new Request(`${origin}/api/v1${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    counted,
    ctx,
  );
  expect(res.status).toBe(201);
  return res;
}

describe("happy", () => {
  it("POST /customers runs its key check and its insert, nothing for its bookmark, and the bookmark reads the customer back", async () => {
    const t = await businessOn(1, "Write bookmarks");
    const count: StatementCount = { statements: 0, trips: 0, sql: [] };
    const created = await countedPost(t.apiKey, "/customers", { name: "Grace", email: "grace@example.com" }, count);
    // The key's row, then the insert with its audit record in one batch: two round trips.
    expect(count.trips).toBe(2);
    expect(count.sql?.filter((sql) => /^select 1$/i.test(sql.trim()))).toEqual([]);
    const bookmark = created.headers.get(BOOKMARK) ?? "";
    expect(bookmark).toMatch(bookmarkShape);
    const { id } = await json(created);
    const read = await api("GET", `/customers/${id}`, { key: t.apiKey, headers: { [BOOKMARK]: bookmark } });
    expect(read.status).toBe(200);
    expect((await json(read)).email).toBe("grace@example.com");
    const list = await api("GET", "/customers?search=grace", { key: t.apiKey, headers: { [BOOKMARK]: bookmark } });
    expect((await json(list)).data.map((c: { id: string }) => c.id)).toContain(id);
  });

  it("POST /bookings reads nothing after its calendar answered; its bookmark covers the calendar's write and reads the booking back", async () => {
    const t = await businessOn(1, "Write bookmarks booked");
    const count: StatementCount = { statements: 0, trips: 0, sql: [] };
    const created = await countedPost(t.apiKey, "/bookings", bookingBody(t.serviceId, at(4, "10:00")), count);
    // The key's row, then the service, its people and resources and the customer in one batch.
    expect(count.trips).toBe(2);
    expect(count.sql?.filter((sql) => /^select 1$/i.test(sql.trim()))).toEqual([]);
    const bookmark = created.headers.get(BOOKMARK) ?? "";
    expect(bookmark).toMatch(bookmarkShape);
    // The calendar wrote the booking to D1 through its own session: the answer is at least there.
    const written = await runInDurableObject(
      serviceCalendarOf(env, t.businessId, t.serviceId),
      (instance) => (instance as unknown as { writeBehind: WriteBehind }).writeBehind.bookmark,
    );
    expect(written).toMatch(bookmarkShape);
    expect(bookmark >= (written ?? "")).toBe(true);
    const { id } = await json(created);
    const read = await api("GET", `/bookings?serviceId=${t.serviceId}`, {
      key: t.apiKey,
      headers: { [BOOKMARK]: bookmark },
    });
    expect((await json(read)).data.map((b: { id: string }) => b.id)).toContain(id);
  });

  it("a calendar call that writes nothing to D1 still leaves the write with a bookmark", async () => {
    const t = await businessOn(1, "Write bookmarks hold");
    const placed = await api("POST", "/holds", {
      key: t.apiKey,
      body: { serviceId: t.serviceId, startTime: at(5, "10:00"), endTime: at(5, "10:30") },
    });
    expect(placed.status).toBe(201);
    expect(placed.headers.get(BOOKMARK)).toMatch(bookmarkShape);
  });
});
