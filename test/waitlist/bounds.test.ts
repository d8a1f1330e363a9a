/**
 * The waitlist's bounds under concurrent bursts (docs/api-behaviour.md, "Waitlist"): 200 joins
 * per API key per 24 hours, counted and written in one D1 statement; 50 entries per slot and
 * 2,000 per service for slots ahead, decided in one transaction of the service's calendar. A
 * burst over a bound is accepted exactly up to it, the rest are 409 `waitlist_full`, and nothing
 * beyond the bound is stored, neither in D1 nor in the calendar.
 */
import { runInDurableObject } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { waitlistEntries } from "../../src/db/schema";
import { api, createAccount, createService, db, json, problem, type TestAccount } from "../support/api";
import { at, book, bookingBody, calendarStub, plus } from "../support/bookings";
import { join, joinBody } from "../support/waitlist";

type FullSlots = TestAccount & { serviceId: string; starts: string[] };

/** A one-seat service with its first `n` slots booked: 09:00–17:00 UTC from day 2, 16 a day. */
async function fullSlots(n: number): Promise<FullSlots> {
  const account = await createAccount("Popular clinic");
  const service = await createService(account.apiKey, { name: "Popular", capacity: 1 });
  const starts = Array.from({ length: n }, (_, i) => plus(at(2 + Math.floor(i / 16), "09:00"), 30 * (i % 16)));
  for (const start of starts) await book(account.apiKey, bookingBody(service.id, start));
  return { ...account, serviceId: service.id, starts };
}

/** `n` joins of the slot at `start`, all at once. */
const burst = (s: FullSlots, start: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, () => api("POST", "/waitlist", { key: s.apiKey, body: joinBody({ ...s, start }) })),
  );

/** How many answers are 201, once every other one is checked to be a 409 waitlist_full; and those problems' details. */
async function accepted(answers: Response[]): Promise<{ queued: number; details: string[] }> {
  const details: string[] = [];
  for (const refused of answers.filter((r) => r.status !== 201)) {
    details.push((await problem(refused, 409, "waitlist_full")).detail);
  }
  return { queued: answers.filter((r) => r.status === 201).length, details };
}

/** Entries of the business in D1 (one per join that was kept: its API key's count). */
async function storedInD1(businessId: string): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(waitlistEntries)
    .where(eq(waitlistEntries.businessId, businessId));
  return row?.n ?? 0;
}

/** Entries of the service as its calendar lists them. */
const listed = async (s: FullSlots) =>
  (await json(await api("GET", `/waitlist?serviceId=${s.serviceId}&limit=1`, { key: s.apiKey }))).pagination.total;

describe("200 joins per API key per 24 hours", () => {
  it("180 joins, then 40 at once: exactly 20 more are queued, and nothing beyond 200 is stored (issue 36)", async () => {
    const s = await fullSlots(5);
    // 180 first, 45 to each of four slots (the slots' own bound of 50 never decides here).
    for (const start of s.starts.slice(0, 4)) expect((await accepted(await burst(s, start, 45))).queued).toBe(45);
    const answers = await burst(s, s.starts[4] ?? "", 40);
    expect((await accepted(answers)).queued).toBe(20);
    expect(await storedInD1(s.businessId)).toBe(200);
    expect(await listed(s)).toBe(200);
    await problem(
      await api("POST", "/waitlist", { key: s.apiKey, body: joinBody({ ...s, start: s.starts[4] ?? "" }) }),
      409,
      "waitlist_full",
    );
  }, 60_000);
});

describe("50 entries per slot", () => {
  it("60 joins of one slot at once: exactly 50 are queued, in line 1 to 50, and the refused ones leave no row", async () => {
    const s = await fullSlots(1);
    const answers = await burst(s, s.starts[0] ?? "", 60);
    expect((await accepted(answers)).queued).toBe(50);
    const positions = await Promise.all(
      answers.filter((r) => r.status === 201).map(async (r) => (await json(r)).position),
    );
    expect(positions.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await listed(s)).toBe(50);
    expect(await storedInD1(s.businessId)).toBe(50);
  });
});

describe("2,000 entries per service for slots ahead", () => {
  it("with 1,990 queued, 20 joins at once: exactly 10 are queued and the calendar holds 2,000", async () => {
    const s = await fullSlots(41);
    // 1,990 entries already queued, 50 in each of the first 39 booked slots and 40 in the 40th
    // (as 1,990 joins from ten keys would leave them), written into the calendar directly.
    const first = await join(s.apiKey, joinBody({ ...s, start: s.starts[0] ?? "" }));
    await runInDurableObject(calendarStub(s.businessId, s.serviceId), (_i: ServiceCalendar, state) => {
      const sql = state.storage.sql;
      const row = sql.exec<Record<string, string>>("SELECT * FROM waitlist WHERE id = ?", first.id).one();
      for (let i = 1; i < 1_990; i++) {
        const startTime = new Date(s.starts[Math.floor(i / 50)] ?? "").toISOString();
        const endTime = plus(startTime, 30);
        const id = `wtl_copy${String(i).padStart(22, "0")}`;
        const record = { ...JSON.parse(row.record ?? "{}"), id, startTime, endTime: new Date(endTime).toISOString() };
        sql.exec(
          `INSERT INTO waitlist (id, business_id, api_key_id, start_ms, end_ms, provider_id, status, hold_id, record)
           VALUES (?, ?, ?, ?, ?, NULL, 'WAITING', NULL, ?)`,
          id,
          row.business_id,
          row.api_key_id,
          Date.parse(startTime),
          Date.parse(endTime),
          JSON.stringify(record),
        );
      }
    });
    expect(await listed(s)).toBe(1_990);
    const answers = await burst(s, s.starts[40] ?? "", 20);
    const { queued, details } = await accepted(answers);
    expect(queued).toBe(10);
    for (const detail of details) expect(detail).toContain("service's waitlists are full");
    expect(await listed(s)).toBe(2_000);
    // The D1 rows of the refused joins were given back: the first join and the 10 kept.
    expect(await storedInD1(s.businessId)).toBe(11);
  });
});
