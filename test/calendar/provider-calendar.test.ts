/**
 * The ProviderCalendar Durable Object, real objects in workerd: one person's time across
 * services — concurrent claims, group sessions, idempotency, moves, release and expiry.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ClaimCommand, ProviderSnapshot } from "../../src/calendar/claim-types";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { newId } from "../../src/lib/ids";
import { eventually } from "../support/eventually";
import { at, everyDay } from "./fixtures";

const MINUTE = 60_000;

/** A fresh calendar with its provider: every day 09:00–17:00 Berlin time unless told. */
function fresh(overrides: Partial<ProviderSnapshot> = {}) {
  const provider: ProviderSnapshot = {
    id: newId("provider"),
    businessId: newId("business"),
    version: 1,
    active: true,
    timezone: "Europe/Berlin",
    weeklySchedule: everyDay({ start: "09:00", end: "17:00" }),
    dateOverrides: [],
    ...overrides,
  };
  return { provider, stub: providerCalendarOf(env, provider.businessId, provider.id) };
}

// 2026-12-01 is a Tuesday; Berlin is UTC+1 in winter, so 10:00 local is 09:00Z.
const TEN = at("2026-12-01T09:00:00Z");

/** Rows in the calendar's claims table, expired or not. */
const claimRows = (stub: ReturnType<typeof fresh>["stub"]) =>
  runInDurableObject(
    stub,
    (_: ProviderCalendar, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM claims").one().n,
  );

/** A 30-minute claim starting at `start`, no buffers, for one seat. */
function claimAt(
  provider: ProviderSnapshot,
  start: number,
  fields: Partial<ClaimCommand<ProviderSnapshot>> = {},
): ClaimCommand<ProviderSnapshot> {
  const end = start + 30 * MINUTE;
  const serviceId = fields.serviceId ?? "svc_a";
  return {
    claimId: newId("booking"),
    serviceId,
    session: `${serviceId}@${fields.start ?? start}`,
    start,
    end,
    blockedStart: start,
    blockedEnd: end,
    capacity: 1,
    settings: provider,
    ...fields,
  };
}

describe("concurrency", () => {
  it("of 40 concurrent claims at one time from two services, exactly one wins", async () => {
    const { provider, stub } = fresh();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        stub.claim(claimAt(provider, TEN, { serviceId: i % 2 === 0 ? "svc_a" : "svc_b" })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "provider_busy")).toBe(true);
    expect((await stub.snapshot()).claims).toHaveLength(1);
  });

  it("a group session (same service, same start) takes exactly its capacity of concurrent seats", async () => {
    const { provider, stub } = fresh();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => stub.claim(claimAt(provider, TEN, { capacity: 3 }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    const claims = (await stub.snapshot()).claims;
    expect(claims).toHaveLength(3);
    expect(new Set(claims.map((c) => c.start))).toEqual(new Set([TEN]));
  });

  it("a group session blocks another service, and a different start of the same service", async () => {
    const { provider, stub } = fresh();
    expect((await stub.claim(claimAt(provider, TEN, { capacity: 3 }))).ok).toBe(true);
    expect(await stub.claim(claimAt(provider, TEN, { capacity: 3, serviceId: "svc_b" }))).toMatchObject({
      ok: false,
      reason: "provider_busy",
    });
    expect(await stub.claim(claimAt(provider, TEN + 15 * MINUTE, { capacity: 3 }))).toMatchObject({
      ok: false,
      reason: "provider_busy",
    });
  });

  it("buffers count: a claim inside another's blocked span is refused, back-to-back is fine", async () => {
    const { provider, stub } = fresh();
    const first = claimAt(provider, TEN, { blockedEnd: TEN + 45 * MINUTE });
    expect((await stub.claim(first)).ok).toBe(true);
    expect((await stub.claim(claimAt(provider, TEN + 30 * MINUTE, { serviceId: "svc_b" }))).ok).toBe(false);
    expect((await stub.claim(claimAt(provider, TEN + 45 * MINUTE, { serviceId: "svc_b" }))).ok).toBe(true);
  });
});

describe("idempotency, moves and release", () => {
  it("replays the same claim without a second row", async () => {
    const { provider, stub } = fresh();
    const claim = claimAt(provider, TEN);
    expect(await stub.claim(claim)).toEqual({ ok: true, replayed: false });
    expect(await stub.claim(claim)).toEqual({ ok: true, replayed: true });
    expect((await stub.snapshot()).claims.map((c) => c.claimId)).toEqual([claim.claimId]);
  });

  it("moves a claim to a new span, not counting itself; a refused move keeps the old claim", async () => {
    const { provider, stub } = fresh();
    const claim = claimAt(provider, TEN);
    await stub.claim(claim);
    // Overlapping its own old span is fine: the claim does not block itself.
    const moved = claimAt(provider, TEN + 15 * MINUTE, { claimId: claim.claimId });
    expect(await stub.claim(moved)).toEqual({ ok: true, replayed: false });
    expect((await stub.snapshot()).claims.map((c) => [c.claimId, c.start])).toEqual([
      [claim.claimId, TEN + 15 * MINUTE],
    ]);

    const other = claimAt(provider, TEN + 2 * 60 * MINUTE, { serviceId: "svc_b" });
    await stub.claim(other);
    const refused = claimAt(provider, other.start, { claimId: claim.claimId });
    expect(await stub.claim(refused)).toMatchObject({ ok: false, reason: "provider_busy" });
    const held = (await stub.snapshot()).claims.find((c) => c.claimId === claim.claimId);
    expect(held?.start).toBe(TEN + 15 * MINUTE);
  });

  it("claimEach decides a series' claims in one call: every one written, or none and every refusal listed", async () => {
    const { provider, stub } = fresh();
    const week = 7 * 24 * 60 * MINUTE;
    const weekly = [0, 1, 2, 3].map((w) => claimAt(provider, TEN + w * week));
    // Week 2 and week 4 are taken by another service: both are named, and nothing is written.
    for (const w of [1, 3]) await stub.claim(claimAt(provider, TEN + w * week, { serviceId: "svc_b" }));
    const refused = await stub.claimEach(weekly);
    expect(refused).toMatchObject({
      ok: false,
      refused: [
        { index: 1, reason: "provider_busy" },
        { index: 3, reason: "provider_busy" },
      ],
    });
    expect(await claimRows(stub)).toBe(2);
    // Without them, all granted at once; the same call again is a replay of each.
    const free = [weekly[0], weekly[2]] as ClaimCommand<ProviderSnapshot>[];
    expect(await stub.claimEach(free)).toEqual({ ok: true });
    expect(await stub.claimEach(free)).toEqual({ ok: true });
    expect(await claimRows(stub)).toBe(4);
    // Released together, idempotently; a late duplicate is refused by its tombstone.
    expect(await stub.releaseEach(free.map((c) => c.claimId))).toEqual({ released: 2 });
    expect(await stub.releaseEach(free.map((c) => c.claimId))).toEqual({ released: 0 });
    expect(await stub.claimEach(free)).toMatchObject({ ok: false, refused: [{ index: 0 }, { index: 1 }] });
    expect(await claimRows(stub)).toBe(2);
  });

  it("release frees the time, is idempotent, and a late duplicate cannot bring the claim back", async () => {
    const { provider, stub } = fresh();
    const claim = claimAt(provider, TEN);
    await stub.claim(claim);
    expect(await stub.release(claim.claimId)).toEqual({ released: true });
    expect(await stub.release(claim.claimId)).toEqual({ released: false });
    expect(await stub.claim(claim)).toMatchObject({
      ok: false,
      reason: "provider_busy",
      detail: expect.stringMatching(/released/),
    });
    expect((await stub.snapshot()).claims).toEqual([]);
    expect((await stub.claim(claimAt(provider, TEN, { serviceId: "svc_b" }))).ok).toBe(true);
  });

  it("dayLoads counts live claims starting in each range", async () => {
    const { provider, stub } = fresh();
    await stub.claim(claimAt(provider, TEN));
    await stub.claim(claimAt(provider, TEN + 60 * MINUTE));
    await stub.claim(claimAt(provider, TEN + 24 * 60 * MINUTE));
    const day = (from: string, to: string) => ({ from: at(from), to: at(to) });
    expect(
      await stub.dayLoads([
        day("2026-11-30T23:00:00Z", "2026-12-01T23:00:00Z"),
        day("2026-12-01T23:00:00Z", "2026-12-02T23:00:00Z"),
      ]),
    ).toEqual([2, 1]);
  });

  it("claimsAround reads each range as claimsBetween does, in one call", async () => {
    const { provider, stub } = fresh();
    for (const minutes of [0, 60, 24 * 60, 24 * 60 + 15]) await stub.claim(claimAt(provider, TEN + minutes * MINUTE));
    const ranges = [
      { from: TEN - 60 * MINUTE, to: TEN + 90 * MINUTE },
      { from: TEN + 24 * 60 * MINUTE, to: TEN + 24 * 60 * MINUTE + 1 },
      { from: TEN + 3 * 60 * MINUTE, to: TEN + 4 * 60 * MINUTE },
    ];
    const around = await stub.claimsAround(ranges);
    expect(around.map((claims) => claims.length)).toEqual([2, 1, 0]);
    for (const [i, { from, to }] of ranges.entries()) expect(around[i]).toEqual(await stub.claimsBetween(from, to));
  });
});

describe("holds expire", () => {
  it("an expired hold stops blocking at once, and the alarm removes it", async () => {
    const { provider, stub } = fresh();
    const hold = claimAt(provider, TEN, { expiresAt: Date.now() + 60 * MINUTE });
    expect((await stub.claim(hold)).ok).toBe(true);
    expect((await stub.claim(claimAt(provider, TEN, { serviceId: "svc_b" }))).ok).toBe(false);
    // One alarm, at the hold's expiry, set with the claim.
    expect(await runInDurableObject(stub, (_: ProviderCalendar, state) => state.storage.getAlarm())).toBe(
      hold.expiresAt,
    );
    // Let the hold's time pass.
    await runInDurableObject(stub, (_: ProviderCalendar, state) => {
      state.storage.sql.exec("UPDATE claims SET expires_ms = ?", Date.now() - 1);
    });
    expect((await stub.snapshot()).claims).toEqual([]);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await claimRows(stub)).toBe(0);
    expect(await stub.claim(claimAt(provider, TEN, { serviceId: "svc_b" }))).toMatchObject({ ok: true });
  });

  it("the alarm drops a hold on time by itself", async () => {
    const { provider, stub } = fresh();
    await stub.claim(claimAt(provider, TEN, { expiresAt: Date.now() + 100 }));
    expect(await claimRows(stub)).toBe(1);
    // Nothing drives the alarm here: the runtime fires it at the hold's expiry.
    await eventually(async () => ((await claimRows(stub)) === 0 ? true : undefined), "the alarm to drop the hold");
  });

  it("re-sending a hold without expiresAt keeps it for good", async () => {
    const { provider, stub } = fresh();
    const hold = claimAt(provider, TEN, { expiresAt: Date.now() + 100 });
    await stub.claim(hold);
    expect(await stub.claim({ ...hold, expiresAt: null })).toMatchObject({ ok: true, replayed: true });
    // No expiry is stored, so no time that passes can end it: the hold's own alarm keeps it.
    const stored = await runInDurableObject(stub, (_: ProviderCalendar, state) =>
      state.storage.sql.exec<{ expires_ms: number | null }>("SELECT expires_ms FROM claims").toArray(),
    );
    expect(stored).toEqual([{ expires_ms: null }]);
    await runDurableObjectAlarm(stub);
    expect((await stub.snapshot()).claims.map((c) => [c.claimId, c.expiresAt])).toEqual([[hold.claimId, null]]);
  });

  it("the alarm prunes claims that ended more than eight days ago, and keeps the rest", async () => {
    const { provider, stub } = fresh({ weeklySchedule: everyDay({ start: "00:00", end: "24:00" }) });
    const hour = 60 * MINUTE;
    const old = claimAt(provider, Math.floor((Date.now() - 9 * 24 * hour) / hour) * hour);
    const recent = claimAt(provider, Math.floor((Date.now() - 24 * hour) / hour) * hour);
    await stub.claim(old);
    await stub.claim(recent);
    await runDurableObjectAlarm(stub);
    expect((await stub.snapshot()).claims.map((c) => c.claimId)).toEqual([recent.claimId]);
    // And the next prune is already scheduled, for when the kept one is old enough.
    const alarm = await runInDurableObject(stub, (_: ProviderCalendar, state) => state.storage.getAlarm());
    expect(alarm).toBe(recent.blockedEnd + 8 * 24 * hour);
  });

  it("the alarm prunes tombstones after their retention", async () => {
    const { provider, stub } = fresh();
    const claim = claimAt(provider, TEN);
    await stub.claim(claim);
    await stub.release(claim.claimId);
    await runInDurableObject(stub, (_: ProviderCalendar, state) => {
      state.storage.sql.exec("UPDATE tombstones SET released_ms = released_ms - ?", 8 * 86_400_000);
    });
    await runDurableObjectAlarm(stub);
    const left = await runInDurableObject(stub, (_: ProviderCalendar, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM tombstones").one(),
    );
    expect(left.n).toBe(0);
  });
});

describe("provider_unavailable", () => {
  it("refuses an inactive provider", async () => {
    const { provider, stub } = fresh({ active: false });
    expect(await stub.claim(claimAt(provider, TEN))).toMatchObject({ ok: false, reason: "provider_unavailable" });
  });

  it("refuses off-hours and a claim running past the end of the interval", async () => {
    const { provider, stub } = fresh();
    // 08:30 Berlin, and 16:45–17:15 Berlin.
    expect(await stub.claim(claimAt(provider, at("2026-12-01T07:30:00Z")))).toMatchObject({
      reason: "provider_unavailable",
    });
    expect(await stub.claim(claimAt(provider, at("2026-12-01T15:45:00Z")))).toMatchObject({
      reason: "provider_unavailable",
    });
    // No slot grid: 10:07 local is fine for the person.
    expect((await stub.claim(claimAt(provider, TEN + 7 * MINUTE))).ok).toBe(true);
  });

  it("follows date overrides: a day off, and shorter hours", async () => {
    const { provider, stub } = fresh({
      dateOverrides: [
        { date: "2026-12-01", intervals: [] },
        { date: "2026-12-02", intervals: [{ start: "09:00", end: "12:00" }] },
      ],
    });
    expect(await stub.claim(claimAt(provider, TEN))).toMatchObject({ reason: "provider_unavailable" });
    expect((await stub.claim(claimAt(provider, at("2026-12-02T10:00:00Z")))).ok).toBe(true);
    expect(await stub.claim(claimAt(provider, at("2026-12-02T13:00:00Z")))).toMatchObject({
      reason: "provider_unavailable",
    });
  });

  it("reads the hours in the provider's own time zone", async () => {
    const { provider, stub } = fresh({ timezone: "America/New_York" });
    // 10:00 Berlin is 04:00 in New York; 15:00Z is 10:00 in New York.
    expect(await stub.claim(claimAt(provider, TEN))).toMatchObject({ reason: "provider_unavailable" });
    expect((await stub.claim(claimAt(provider, at("2026-12-01T15:00:00Z")))).ok).toBe(true);
  });

  it("keeps the newest settings: configure wins over an older snapshot sent with a claim, and vice versa", async () => {
    const { provider, stub } = fresh();
    expect(await stub.configure({ ...provider, version: 2, active: false })).toEqual({ version: 2 });
    expect(await stub.configure({ ...provider, version: 1 })).toEqual({ version: 2 });
    expect(await stub.claim(claimAt(provider, TEN))).toMatchObject({ reason: "provider_unavailable" });
    const reactivated = { ...provider, version: 3, active: true };
    expect((await stub.claim(claimAt(reactivated, TEN))).ok).toBe(true);
    expect((await stub.snapshot()).settings?.version).toBe(3);
  });
});
