/**
 * A series under faults: its occurrences are booked all together or not at all, whichever
 * calendar is reset at whichever step (docs/consistency.md, "Visits" — a series is the same flow).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { claimedCalendarOf, claimTargetOf } from "../../src/calendar/stubs";
import { createDb } from "../../src/db/client";
import { series } from "../../src/db/schema";
import { loadBookableService } from "../../src/services/bookable";
import { createService, json, problem } from "../support/api";
import { at, book, bookingBody, calendarStub, d1Bookings } from "../support/bookings";
import { injectFaults } from "../support/faults";
import { createResource } from "../support/fixtures";
import { clinic, postSeries, seriesBody, weeksAfter } from "../support/series";
import type { ResourceCalendar as FaultyResource } from "../support/worker";

const claimsIn = async (businessId: string, calendar: "provider" | "resource", id: string) =>
  (await claimedCalendarOf(env, businessId, { calendar, id }).snapshot()).claims.map((c) => c.claimId);

const rowsOf = (businessId: string, serviceId: string) =>
  runInDurableObject(calendarStub(businessId, serviceId), (_i, state) =>
    state.storage.sql.exec<{ id: string }>("SELECT id FROM bookings").toArray(),
  );

/** Sends what the service's calendar still owes other calendars, now, by its alarm. */
async function drain(businessId: string, serviceId: string) {
  const stub = calendarStub(businessId, serviceId);
  await runInDurableObject(stub, (_i, state) => {
    state.storage.sql.exec("UPDATE claim_tasks SET next_attempt_ms = 0");
  });
  await runDurableObjectAlarm(stub);
}

describe("a series whose room's calendar fails a claim", () => {
  it.each(["before", "after"] as const)(
    "%s its write, after every occurrence's person was granted: 503, nothing held anywhere, the retry books all",
    async (when) => {
      const c = await clinic();
      const room = (await createResource(c.apiKey, { name: "Gym" })).id as string;
      const rehab = await createService(c.apiKey, { name: "Rehab", providerIds: [c.therapist], resourceIds: [room] });
      const roomCalendar = claimedCalendarOf(env, c.businessId, { calendar: "resource", id: room });
      await runInDurableObject(roomCalendar, (instance) => {
        (instance as unknown as FaultyResource).faults.claim = when;
      });
      const body = seriesBody(rehab.id, at(3, "10:00"), "FREQ=DAILY;COUNT=4", { providerId: c.therapist });
      const res = await postSeries(c.apiKey, body);
      expect(res.status).toBe(503);
      await runInDurableObject(roomCalendar, (instance) => {
        (instance as unknown as FaultyResource).faults.claim = undefined;
      });
      await drain(c.businessId, rehab.id);
      expect(await rowsOf(c.businessId, rehab.id)).toEqual([]);
      expect(await claimsIn(c.businessId, "provider", c.therapist)).toEqual([]);
      expect(await claimsIn(c.businessId, "resource", room)).toEqual([]);
      expect(await d1Bookings(c.businessId)).toEqual([]);
      const booked = await postSeries(c.apiKey, body);
      expect(booked.status).toBe(201);
      expect(await claimsIn(c.businessId, "provider", c.therapist)).toHaveLength(4);
      expect(await claimsIn(c.businessId, "resource", room)).toHaveLength(4);
      expect((await reconcile(env, { businessId: c.businessId })).differences).toEqual([]);
      expect((await reconcileClaimed(env, { businessId: c.businessId })).differences).toEqual([]);
    },
  );

  it("the entry reset after every claim was granted: at the deadline its alarm drops every occurrence and releases every claim", async () => {
    const c = await clinic();
    const room = (await createResource(c.apiKey, { name: "Gym" })).id as string;
    const rehab = await createService(c.apiKey, { name: "Rehab", providerIds: [c.therapist], resourceIds: [room] });
    const loaded = await loadBookableService(createDb(env.DB_0), c.businessId, rehab.id, { providerId: c.therapist });
    const entry = calendarStub(c.businessId, rehab.id);
    const first = Date.parse(at(3, "12:00"));
    const times = [0, 1, 2].map((d) => ({ start: first + d * 86_400_000, end: first + d * 86_400_000 + 1_800_000 }));
    // Step 1 and every claim of step 2 happen; then the entry is reset (nothing more runs).
    const needs = await runInDurableObject(entry, async (instance, state) => {
      const { visiting, visitFlow } = await import("../../src/calendar/service/flows/create-visit");
      // biome-ignore lint/suspicious/noExplicitAny: the test drives the calendar's private tables
      const tables = (instance as any).tables;
      const segment = { ...loaded, providerId: c.therapist, answers: {} };
      const command = {
        appointmentId: "ser_test",
        startTime: new Date(first).toISOString(),
        segments: times.map(() => segment) as never,
        series: { times },
        customer: { customerName: "Ada", customerEmail: "ada@example.com", customerPhone: null, notes: null },
        customerId: null,
      };
      const candidate = { providerId: c.therapist, providers: loaded.providers, resources: loaded.resources };
      const flow = visitFlow(tables, command, times.map(() => [candidate]) as never, Date.now());
      const step = state.storage.transactionSync(() => visiting.begin(flow, Date.now()));
      if (step.kind !== "claim") throw new Error("expected a claim step");
      for (const need of step.attempt.needs) {
        expect((await claimTargetOf(env, c.businessId, need).claim(need.command)).ok).toBe(true);
      }
      return step.attempt.needs.length;
    });
    expect(needs).toBe(6);
    expect(await rowsOf(c.businessId, rehab.id)).toHaveLength(3);
    expect(await claimsIn(c.businessId, "provider", c.therapist)).toHaveLength(3);
    await runInDurableObject(entry, (_i, state) => {
      state.storage.sql.exec("UPDATE bookings SET tentative_until_ms = 1 WHERE tentative_until_ms IS NOT NULL");
    });
    await runDurableObjectAlarm(entry);
    await drain(c.businessId, rehab.id);
    expect(await rowsOf(c.businessId, rehab.id)).toEqual([]);
    expect(await claimsIn(c.businessId, "provider", c.therapist)).toEqual([]);
    expect(await claimsIn(c.businessId, "resource", room)).toEqual([]);
    expect(await d1Bookings(c.businessId)).toEqual([]);
    expect((await reconcile(env, { businessId: c.businessId })).differences).toEqual([]);
    expect((await reconcileClaimed(env, { businessId: c.businessId })).differences).toEqual([]);
  });
});

describe("a refused series whose service's calendar cannot be read for the conflict list", () => {
  it("reject: 409 naming the occurrence the calendar refused, no series left behind; skip: books the others", async () => {
    const c = await clinic();
    const start = at(2, "12:00");
    await book(c.apiKey, bookingBody(c.open, weeksAfter(start, 1)));
    await injectFaults(calendarStub(c.businessId, c.open), { availability: "fail" });
    const refused = await problem(
      await postSeries(c.apiKey, seriesBody(c.open, start, "FREQ=WEEKLY;COUNT=3")),
      409,
      "slot_unavailable",
    );
    expect(refused.conflicts).toEqual([
      { startTime: new Date(weeksAfter(start, 1)).toISOString(), reason: "fully_booked" },
    ]);
    expect(await createDb(env.DB_0).select().from(series).where(eq(series.businessId, c.businessId))).toEqual([]);
    expect(await d1Bookings(c.businessId)).toHaveLength(1);

    const res = await postSeries(c.apiKey, seriesBody(c.open, start, "FREQ=WEEKLY;COUNT=3", { onConflict: "skip" }));
    expect(res.status).toBe(201);
    const skipped = await json(res);
    expect(skipped.bookings.map((b: { startTime: string }) => b.startTime)).toEqual(
      [0, 2].map((w) => new Date(weeksAfter(start, w)).toISOString()),
    );
    expect(skipped.skipped.map((s: { reason: string }) => s.reason)).toEqual(["fully_booked"]);
  });
});
