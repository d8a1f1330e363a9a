/**
 * A waitlist's past: entries whose slots have begun can never be offered, so they read EXPIRED
 * and leave the service's bound of 2,000; and the nightly prune drops entries 30 days after their slot ended,
 * so a busy service's waitlist does not grow with its history (docs/api-behaviour.md, "Waitlist").
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { nightly } from "../../src/maintenance";
import { api, json, problem } from "../support/api";
import { calendarStub } from "../support/bookings";
import { entry, fullSlot, join, joinBody } from "../support/waitlist";

const DAY = 86_400_000;

type Stub = DurableObjectStub<ServiceCalendar>;

/**
 * Copies `entryId`'s row `n` times as WAITING entries of 30-minute slots, the first starting
 * `minutesFromNow` from now (negative: begun), each a minute after the one before.
 */
async function copiesOf(stub: Stub, entryId: string, n: number, minutesFromNow: number) {
  await runInDurableObject(stub, (_i: ServiceCalendar, state) => {
    const sql = state.storage.sql;
    const row = sql.exec<Record<string, string | number | null>>("SELECT * FROM waitlist WHERE id = ?", entryId).one();
    const base = Math.floor(Date.now() / 60_000) * 60_000 + minutesFromNow * 60_000;
    for (let i = 0; i < n; i++) {
      const start = base + i * 60_000;
      const id = `wtl_copy${String(i).padStart(22, "0")}`;
      const record = { ...JSON.parse(row.record as string), id };
      sql.exec(
        `INSERT INTO waitlist (id, business_id, api_key_id, start_ms, end_ms, provider_id, status, hold_id, record)
         VALUES (?, ?, ?, ?, ?, NULL, 'WAITING', NULL, ?)`,
        id,
        row.business_id,
        row.api_key_id,
        start,
        start + 30 * 60_000,
        JSON.stringify(record),
      );
    }
  });
}

/** Moves an entry's slot to have ended `daysAgo` days ago, in its row and its record. */
async function slotEndedDaysAgo(stub: Stub, id: string, daysAgo: number) {
  const end = Date.now() - daysAgo * DAY;
  const times = { startTime: new Date(end - 30 * 60_000).toISOString(), endTime: new Date(end).toISOString() };
  await runInDurableObject(stub, (_i: ServiceCalendar, state) => {
    const { record } = state.storage.sql.exec<{ record: string }>("SELECT record FROM waitlist WHERE id = ?", id).one();
    state.storage.sql.exec(
      "UPDATE waitlist SET start_ms = ?, end_ms = ?, record = ? WHERE id = ?",
      end - 30 * 60_000,
      end,
      JSON.stringify({ ...JSON.parse(record), ...times }),
      id,
    );
  });
}

describe("a waitlist's past", () => {
  it("entries of slots that have begun do not count against the service's 2,000; entries ahead do", async () => {
    const s = await fullSlot();
    const stub = calendarStub(s.businessId, s.serviceId);
    const first = await join(s.apiKey, joinBody(s));
    // Begun 3 days ago … 2,000 minutes later: the last ones are under way now (begun, not ended).
    await copiesOf(stub, first.id, 2_000, -2_010);

    const res = await api("POST", "/waitlist", { key: s.apiKey, body: joinBody(s) });
    expect(res.status).toBe(201);
    expect((await json(res)).position).toBe(2);

    // The same 2,000 for slots ahead fill the service's waitlists.
    await runInDurableObject(stub, (_i: ServiceCalendar, state) => {
      state.storage.sql.exec(
        "UPDATE waitlist SET start_ms = start_ms + ?, end_ms = end_ms + ? WHERE id LIKE 'wtl_copy%'",
        3 * DAY,
        3 * DAY,
      );
    });
    const full = await api("POST", "/waitlist", { key: s.apiKey, body: joinBody(s) });
    expect((await problem(full, 409, "waitlist_full")).detail).toContain("service's waitlists are full");
  });

  it("an entry still WAITING when its slot begins reads EXPIRED, in reads, lists and filters, and stays so when left", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    const second = await join(s.apiKey, joinBody(s));
    const list = async (status: string) =>
      json(await api("GET", `/waitlist?serviceId=${s.serviceId}&status=${status}`, { key: s.apiKey }));
    expect((await list("WAITING")).pagination.total).toBe(2);
    try {
      // One minute before the slot: still waiting, in line.
      vi.setSystemTime(Date.parse(s.start) - 60_000);
      expect(await entry(s.apiKey, second.id)).toMatchObject({ status: "WAITING", position: 2 });
      // One minute into it: no seat can be offered any more.
      vi.setSystemTime(Date.parse(s.start) + 60_000);
      expect(await entry(s.apiKey, first.id)).toMatchObject({
        status: "EXPIRED",
        position: null,
        holdId: null,
        updatedAt: first.updatedAt,
      });
      const waiting = await list("WAITING");
      expect(waiting.data).toEqual([]);
      expect(waiting.pagination.total).toBe(0);
      const expired = await list("EXPIRED");
      expect(expired.data.map((e: { id: string }) => e.id)).toEqual([first.id, second.id]);
      expect(expired.pagination.total).toBe(2);
      // Leaving an entry that has ended changes nothing.
      expect((await api("DELETE", `/waitlist/${second.id}`, { key: s.apiKey })).status).toBe(204);
      expect(await entry(s.apiKey, second.id)).toMatchObject({ status: "EXPIRED", position: null });
      expect((await list("CANCELLED")).pagination.total).toBe(0);
      // A change of the service's length carries waiting entries along, not ended ones.
      const patch = { key: s.apiKey, body: { durationMinutes: 45 } };
      expect((await api("PATCH", `/services/${s.serviceId}`, patch)).status).toBe(200);
      expect(await entry(s.apiKey, first.id)).toMatchObject({
        status: "EXPIRED",
        endTime: first.endTime,
        updatedAt: first.updatedAt,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("the nightly prune drops entries 30 days after their slot ended, whatever their status, and keeps the rest", async () => {
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const s = await fullSlot();
    const stub = calendarStub(s.businessId, s.serviceId);
    const old = await join(s.apiKey, joinBody(s));
    const booked = await join(s.apiKey, joinBody(s));
    const recent = await join(s.apiKey, joinBody(s));
    const ahead = await join(s.apiKey, joinBody(s));
    await api("DELETE", `/waitlist/${recent.id}`, { key: s.apiKey });
    await runInDurableObject(stub, (_i: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE waitlist SET status = 'BOOKED' WHERE id = ?", booked.id);
    });
    await slotEndedDaysAgo(stub, old.id, 31);
    await slotEndedDaysAgo(stub, booked.id, 31);
    await slotEndedDaysAgo(stub, recent.id, 29);

    await nightly(env);

    const pruned = logs.mock.calls.map(([line]) => JSON.parse(String(line))).find((l) => l.msg === "pruned");
    expect(pruned.waitlistEntries).toBeGreaterThanOrEqual(2);
    const page = await json(await api("GET", `/waitlist?serviceId=${s.serviceId}`, { key: s.apiKey }));
    expect(page.data.map((e: { id: string }) => e.id)).toEqual([recent.id, ahead.id]);
    expect(page.pagination.total).toBe(2);
    await problem(await api("GET", `/waitlist/${old.id}`, { key: s.apiKey }), 404, "not_found");
    await problem(await api("GET", `/waitlist/${booked.id}`, { key: s.apiKey }), 404, "not_found");
    // Leaving an entry that was dropped is what leaving an ended one is: 204, nothing changes.
    expect((await api("DELETE", `/waitlist/${old.id}`, { key: s.apiKey })).status).toBe(204);
    expect(await json(await api("GET", `/waitlist/${recent.id}`, { key: s.apiKey }))).toMatchObject({
      status: "CANCELLED",
    });
    expect(await json(await api("GET", `/waitlist/${ahead.id}`, { key: s.apiKey }))).toMatchObject({
      status: "WAITING",
      position: 1,
    });
  });
});
