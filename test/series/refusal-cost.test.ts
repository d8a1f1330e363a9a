/**
 * What a refusal of the widest service costs: 50 people and 5 rooms, one room closed at the time
 * asked. The answer is the same as ever (which occurrences conflict, and why), and the work is
 * bounded: each calendar is asked at most once per kind of call — once to claim every occurrence,
 * once to release them, once to read them for the conflict list — and the room that refuses
 * everyone ends the search at once (docs/api-behaviour.md, "Series"; docs/performance.md).
 * Counted by the calendars themselves (test/support/worker.ts), never timed.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { claimedCalendarOf } from "../../src/calendar/stubs";
import { createDb } from "../../src/db/client";
import { series } from "../../src/db/schema";
import { json, problem, utc } from "../support/api";
import { at, bookingBody, calendarStub, d1Bookings, plus, postBooking } from "../support/bookings";
import { type CalendarRef, takeCalls } from "../support/faults";
import { type Crew, crew, postSeries, seriesBody, weeksAfter } from "../support/series";

const WEEKLY_52 = "FREQ=WEEKLY;COUNT=52";
/** The 52 weekly starts of a series from `start`. */
const weekly = (start: string) => Array.from({ length: 52 }, (_, w) => utc(weeksAfter(start, w)));

/** Every calendar a booking of the crew's service may call. */
const calendarsOf = (c: Crew): CalendarRef[] => [
  { calendar: "service", id: c.service },
  ...c.people.map((id) => ({ calendar: "provider" as const, id })),
  ...c.rooms.map((id) => ({ calendar: "resource" as const, id })),
];

/** The calls of each calendar that were answered more than `most` times, as `calendar:id method ×n`. */
async function overused(c: Crew, most: number): Promise<string[]> {
  const calls = await takeCalls(c.businessId, calendarsOf(c));
  return Object.entries(calls).flatMap(([calendar, methods]) =>
    Object.entries(methods).flatMap(([method, n]) => (n > most ? [`${calendar} ${method} ×${n}`] : [])),
  );
}

/** The ids of the live claims each person and room holds, those holding none left out. */
async function heldClaims(c: Crew): Promise<Record<string, string[]>> {
  const held = await Promise.all(
    calendarsOf(c)
      .filter((ref) => ref.calendar !== "service")
      .map(async ({ calendar, id }) => {
        const { claims } = await claimedCalendarOf(env, c.businessId, {
          calendar: calendar as "provider" | "resource",
          id,
        }).snapshot();
        return [id, claims.map((claim) => claim.claimId)] as const;
      }),
  );
  return Object.fromEntries(held.filter(([, ids]) => ids.length > 0));
}

/** Sends now, by the service calendar's alarm, whatever it still owes other calendars (a bounded number a run). */
async function drain(c: Crew) {
  const stub = calendarStub(c.businessId, c.service);
  for (let run = 0; run < 10; run++) {
    const owed = await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE claim_tasks SET next_attempt_ms = 0");
      return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM claim_tasks").one().n;
    });
    if (owed === 0) return;
    await runDurableObjectAlarm(stub);
  }
  throw new Error("the service calendar still owes other calendars after 10 alarm runs");
}

const seriesRows = (businessId: string) =>
  createDb(env.DB_0).select().from(series).where(eq(series.businessId, businessId));

describe("a create refused by a closed room, 50 people and 5 rooms", () => {
  it("409 no_provider_available, as when every person was tried; each calendar asked at most once, nothing held", async () => {
    const c = await crew();
    await takeCalls(c.businessId, calendarsOf(c));
    const refused = await problem(
      await postBooking(c.apiKey, bookingBody(c.service, at(2, "14:00"))),
      409,
      "slot_unavailable",
    );
    expect(refused.reason).toBe("no_provider_available");
    expect(await overused(c, 1)).toEqual([]);
    expect(await heldClaims(c)).toEqual({});
  });
});

describe("a weekly series of 52 refused by a closed room, 50 people and 5 rooms", () => {
  it.each(["reject", "skip"] as const)(
    "%s: 409 listing all 52 occurrences with their reasons; each calendar asked at most once per kind of call, nothing held",
    async (onConflict) => {
      const c = await crew();
      const start = at(2, "14:00");
      await takeCalls(c.businessId, calendarsOf(c));
      const res = await postSeries(c.apiKey, seriesBody(c.service, start, WEEKLY_52, { onConflict }));
      const refused = await problem(res, 409, "slot_unavailable");
      expect(refused.detail).toBe("52 occurrence(s) of the series cannot be booked.");
      expect(refused.conflicts.map((x: { startTime: string }) => x.startTime)).toEqual(weekly(start));
      // Each with the calendar's own refusal, as POST /bookings answers it for that time: with
      // automatic assignment, nobody could take it.
      expect(refused.reason).toBe("no_provider_available");
      expect(new Set(refused.conflicts.map((x: { reason: string }) => x.reason))).toEqual(
        new Set(["no_provider_available"]),
      );
      // One claim call per calendar (every occurrence in it), one release call: no more.
      expect(await overused(c, 1)).toEqual([]);
      expect(await heldClaims(c)).toEqual({});
      const week10 = await postBooking(c.apiKey, bookingBody(c.service, weeksAfter(start, 10)));
      expect((await problem(week10, 409, "slot_unavailable")).reason).toBe(refused.conflicts[10].reason);
      expect(await seriesRows(c.businessId)).toEqual([]);
      expect(await d1Bookings(c.businessId)).toEqual([]);
    },
  );

  it("the room closed on one date only: reject names that occurrence alone; skip books the other 51", async () => {
    const fifth = weeksAfter(at(2, "14:00"), 4);
    const c = await crew([fifth.slice(0, 10)]);
    const start = at(2, "14:00");
    await takeCalls(c.businessId, calendarsOf(c));
    const rejected = await problem(
      await postSeries(c.apiKey, seriesBody(c.service, start, WEEKLY_52)),
      409,
      "slot_unavailable",
    );
    expect(rejected.conflicts).toEqual([{ startTime: utc(fifth), reason: "no_provider_available" }]);
    expect(await overused(c, 1)).toEqual([]);
    expect(await heldClaims(c)).toEqual({});

    const res = await postSeries(c.apiKey, seriesBody(c.service, start, WEEKLY_52, { onConflict: "skip" }));
    expect(res.status).toBe(201);
    const booked = await json(res);
    expect(booked.bookings.map((b: { startTime: string }) => b.startTime)).toEqual(
      weekly(start).filter((t) => t !== utc(fifth)),
    );
    expect(booked.skipped).toEqual([
      { startTime: utc(fifth), endTime: utc(plus(fifth, 30)), reason: "no_provider_available" },
    ]);
    // Refused once, then booked without it: at most two calls of a kind per calendar.
    expect(await overused(c, 2)).toEqual([]);
    const ids = booked.bookings.map((b: { id: string }) => b.id).sort();
    expect(await heldClaims(c)).toEqual(
      Object.fromEntries([booked.bookings[0].providerId, ...c.rooms].map((id: string) => [id, ids])),
    );
  });
});

describe("concurrency", () => {
  it("a burst of refused series of 52 beside one valid booking: the booking stands alone, nothing else is held", async () => {
    const c = await crew();
    const start = at(2, "14:00");
    const burst = [
      ...["reject", "skip", "reject", "skip", "reject", "skip"].map((onConflict) =>
        postSeries(c.apiKey, seriesBody(c.service, start, WEEKLY_52, { onConflict })),
      ),
      postBooking(c.apiKey, bookingBody(c.service, at(2, "10:00"))),
    ];
    await takeCalls(c.businessId, calendarsOf(c));
    const answers = await Promise.all(burst);
    const booking = await json(answers.at(-1) as Response);
    expect((answers.at(-1) as Response).status).toBe(201);
    for (const res of answers.slice(0, -1)) await problem(res, 409, "slot_unavailable");
    // However they interleave, each calendar is asked at most twice per kind of call per request.
    expect(await overused(c, 2 * burst.length)).toEqual([]);
    await drain(c);
    // The booking's person and every room hold its claim; nobody else holds anything.
    expect(await heldClaims(c)).toEqual(
      Object.fromEntries([booking.providerId, ...c.rooms].map((id: string) => [id, [booking.id]])),
    );
    expect((await d1Bookings(c.businessId)).map((b) => b.id)).toEqual([booking.id]);
    expect(await seriesRows(c.businessId)).toEqual([]);
    const services = await reconcile(env, { businessId: c.businessId });
    expect(services.differences.filter((d) => d.kind !== "pending_in_outbox")).toEqual([]);
    expect((await reconcileClaimed(env, { businessId: c.businessId })).differences).toEqual([]);
  });
});
