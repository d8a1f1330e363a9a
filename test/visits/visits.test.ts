/**
 * Visits under concurrency and faults: a visit is booked whole or not at all, whoever races it
 * and whichever calendar is reset at whichever step (docs/consistency.md, "Visits").
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SeatCommand } from "../../src/calendar/claim-types";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { claimedCalendarOf, claimTargetOf } from "../../src/calendar/stubs";
import { createDb } from "../../src/db/client";
import { loadBookableService } from "../../src/services/bookable";
import { api, createAccount, createService, json } from "../support/api";
import { at, book, bookingBody, calendarStub, d1Bookings, plus, postBooking, statusCounts } from "../support/bookings";
import { injectFaults } from "../support/faults";
import { newProvider } from "../support/fixtures";
import { postVisit, type Spa, spa, visitBody } from "../support/visits";

/** The claims a stylist's calendar holds, by id. */
const claimsOf = async (s: Spa, stylist: string) =>
  (await claimedCalendarOf(env, s.businessId, { calendar: "provider", id: stylist }).snapshot()).claims.map(
    (c) => c.claimId,
  );

/** Every row a service calendar keeps (bookings, segments not confirmed yet, tentative rows). */
const rowsOf = (s: Spa, serviceId: string) =>
  runInDurableObject(calendarStub(s.businessId, serviceId), (_i, state) =>
    state.storage.sql.exec<{ id: string; kind: string }>("SELECT id, kind FROM bookings ORDER BY id").toArray(),
  );

/** Sends whatever a calendar still owes other calendars, now, by its alarm. */
async function drainTasks(s: Spa, serviceId: string) {
  const stub = calendarStub(s.businessId, serviceId);
  await runInDurableObject(stub, (_i, state) => {
    state.storage.sql.exec("UPDATE claim_tasks SET next_attempt_ms = 0");
  });
  await runDurableObjectAlarm(stub);
}

async function expectConsistent(s: Spa) {
  const services = await reconcile(env, { businessId: s.businessId });
  expect(services.differences.filter((d) => d.kind !== "pending_in_outbox")).toEqual([]);
  expect((await reconcileClaimed(env, { businessId: s.businessId })).differences).toEqual([]);
}

const cutThenColour = (s: Spa, start: string, stylist?: string) =>
  visitBody(start, [
    { serviceId: s.cut, ...(stylist ? { providerId: stylist } : {}) },
    { serviceId: s.colour, ...(stylist ? { providerId: stylist } : {}) },
  ]);

describe("storms", () => {
  it("20 concurrent identical visits for one stylist: exactly one whole visit, the stylist claimed twice", async () => {
    const s = await spa();
    const [stylist] = s.stylists as [string];
    const start = at(2, "10:00");
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postVisit(s.apiKey, cutThenColour(s, start, stylist))),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 409: 19 });
    const [winner] = await Promise.all(answers.filter((r) => r.status === 201).map(json));
    await drainTasks(s, s.cut);
    expect((await claimsOf(s, stylist)).sort()).toEqual(winner.bookings.map((b: { id: string }) => b.id).sort());
    expect((await d1Bookings(s.businessId)).map((b) => b.appointmentId)).toEqual([winner.id, winner.id]);
    await expectConsistent(s);
  });

  it("two kinds of visit competing for one segment's person, entered from different calendars: exactly one whole visit", async () => {
    const s = await spa();
    const [a, b] = s.stylists as [string, string];
    const start = at(2, "10:00");
    // X enters at the cut (stylist A), then needs B for the colour; Y enters at the massage, then needs B at the same time.
    const x = visitBody(start, [
      { serviceId: s.cut, providerId: a },
      { serviceId: s.colour, providerId: b },
    ]);
    const y = visitBody(plus(start, -30), [{ serviceId: s.massage }, { serviceId: s.colour, providerId: b }]);
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => postVisit(s.apiKey, i % 2 === 0 ? x : y)));
    expect(statusCounts(answers)[201]).toBe(1);
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    await Promise.all([s.cut, s.colour, s.massage].map((id) => drainTasks(s, id)));
    const rows = await d1Bookings(s.businessId);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.appointmentId)).size).toBe(1);
    expect(await claimsOf(s, b)).toHaveLength(1);
    for (const id of [s.cut, s.colour, s.massage]) {
      expect((await rowsOf(s, id)).every((r) => r.kind === "booking")).toBe(true);
    }
    await expectConsistent(s);
  });

  it("10 concurrent visits with stylists assigned: at most one per stylist, never a stylist twice at once", async () => {
    const s = await spa();
    const start = at(2, "13:00");
    const answers = await Promise.all(Array.from({ length: 10 }, () => postVisit(s.apiKey, cutThenColour(s, start))));
    const won = statusCounts(answers)[201] ?? 0;
    expect(won).toBeGreaterThanOrEqual(1);
    expect(won).toBeLessThanOrEqual(2);
    await Promise.all([s.cut, s.colour].map((id) => drainTasks(s, id)));
    for (const stylist of s.stylists) expect((await claimsOf(s, stylist)).length).toBeLessThanOrEqual(2);
    expect(await d1Bookings(s.businessId)).toHaveLength(2 * won);
    await expectConsistent(s);
  });
});

describe("assignment", () => {
  it("a later segment's first choice refusing does not cost the first segment its person (found by the model-based test)", async () => {
    const account = await createAccount("Barber");
    const day = [{ start: "09:00", end: "17:00" }];
    const morning = [{ start: "09:00", end: "10:00" }];
    const every = (d: unknown) => ({ mon: d, tue: d, wed: d, thu: d, fri: d, sat: d, sun: d });
    const ana = await newProvider(account.apiKey, "Ana", { weeklySchedule: every(day) });
    const ben = await newProvider(account.apiKey, "Ben", { weeklySchedule: every(morning) });
    const beard = await createService(account.apiKey, { name: "Beard", providerIds: [ana] });
    const colour = await createService(account.apiKey, { name: "Colour", providerIds: [ana, ben] });
    // Ana has a booking that day, Ben none: Ben is the colour's first choice, but he has gone home by 14:30.
    await book(account.apiKey, bookingBody(beard.id, at(2, "09:00")));
    const res = await postVisit(
      account.apiKey,
      visitBody(at(2, "14:00"), [{ serviceId: beard.id }, { serviceId: colour.id }]),
    );
    expect(res.status).toBe(201);
    expect((await json(res)).bookings.map((b: { providerId: string }) => b.providerId)).toEqual([ana, ana]);
    expect(
      (await claimedCalendarOf(env, account.businessId, { calendar: "provider", id: ben }).snapshot()).claims,
    ).toEqual([]);
  });

  it("an earlier segment claimed anew after a retry is not blocked by its own later segment (found by the model-based test)", async () => {
    const account = await createAccount("Colourist");
    const day = [{ start: "09:00", end: "17:00" }];
    const morning = [{ start: "09:00", end: "10:00" }];
    const every = (d: unknown) => ({ mon: d, tue: d, wed: d, thu: d, fri: d, sat: d, sun: d });
    // Ana's id sorts first, so her claim for the beard is made (and kept) before Ben is asked.
    const ana = await newProvider(account.apiKey, "Ana", { weeklySchedule: every(day) });
    const ben = await newProvider(account.apiKey, "Ben", { weeklySchedule: every(morning) });
    const colour = await createService(account.apiKey, {
      name: "Colour",
      providerIds: [ana, ben],
      bufferAfterMinutes: 15,
    });
    const beard = await createService(account.apiKey, { name: "Beard", providerIds: [ana] });
    // Ana has a booking that day, Ben none: Ben is the colour's first choice, but he has gone home by 14:00.
    await book(account.apiKey, bookingBody(beard.id, at(2, "09:00")));
    // The colour's buffer (14:30–14:45) overlaps the beard Ana already holds from the first attempt.
    const res = await postVisit(
      account.apiKey,
      visitBody(at(2, "14:00"), [{ serviceId: colour.id }, { serviceId: beard.id }]),
    );
    expect(res.status).toBe(201);
    expect((await json(res)).bookings.map((b: { providerId: string }) => b.providerId)).toEqual([ana, ana]);
    const claims = (await claimedCalendarOf(env, account.businessId, { calendar: "provider", id: ana }).snapshot())
      .claims;
    expect(claims.map((c) => new Date(c.start).toISOString()).sort()).toEqual(
      [at(2, "09:00"), at(2, "14:00"), at(2, "14:30")].map((t) => new Date(t).toISOString()),
    );
  });
});

describe("faults", () => {
  it.each(["before", "after"] as const)(
    "a later segment's calendar reset %s its seat claim: 503, nothing held, the retry books the visit",
    async (when) => {
      const s = await spa();
      const [stylist] = s.stylists as [string];
      const start = at(3, "10:00");
      await injectFaults(calendarStub(s.businessId, s.colour), { claim: when });
      const body = cutThenColour(s, start, stylist);
      const failed = await postVisit(s.apiKey, body);
      expect(failed.status).toBe(503);
      expect(failed.headers.get("Retry-After")).toBe("1");
      await injectFaults(calendarStub(s.businessId, s.colour), { claim: undefined });
      await drainTasks(s, s.cut);
      expect(await rowsOf(s, s.colour)).toEqual([]);
      expect(await rowsOf(s, s.cut)).toEqual([]);
      expect(await claimsOf(s, stylist)).toEqual([]);
      expect(await d1Bookings(s.businessId)).toEqual([]);
      await expectConsistent(s);
      expect((await postVisit(s.apiKey, body)).status).toBe(201);
      await expectConsistent(s);
    },
  );

  it("the entry reset after every claim was granted, before it confirmed: its alarm releases everything at the deadline", async () => {
    const s = await spa();
    const [stylist] = s.stylists as [string];
    const start = at(3, "11:00");
    const db = createDb(env.DB_0);
    const [cut, colour] = await Promise.all(
      [s.cut, s.colour].map((id) => loadBookableService(db, s.businessId, id, { providerId: stylist })),
    );
    const person = (cut?.providers ?? []).find((p) => p.id === stylist);
    const entry = calendarStub(s.businessId, s.cut);
    // Step 1 and every claim of step 2 happen; then the entry is reset (nothing more runs).
    const claims = await runInDurableObject(entry, async (instance, state) => {
      const { visiting, visitFlow } = await import("../../src/calendar/service/flows/create-visit");
      // biome-ignore lint/suspicious/noExplicitAny: the test drives the calendar's private tables
      const tables = (instance as any).tables;
      const segments = [cut, colour].map((l) => ({ ...l, providerId: stylist, answers: {} }));
      const command = {
        appointmentId: "apt_test",
        startTime: start,
        segments: segments as never,
        customer: { customerName: "Ada", customerEmail: "ada@example.com", customerPhone: null, notes: null },
        customerId: null,
      };
      const candidate = { providerId: stylist, providers: [person], resources: [] };
      const flow = visitFlow(tables, command, [[candidate], [candidate]] as never, Date.now());
      const step = state.storage.transactionSync(() => visiting.begin(flow, Date.now()));
      if (step.kind !== "claim") throw new Error("expected a claim step");
      for (const need of step.attempt.needs) {
        expect((await claimTargetOf(env, s.businessId, need).claim(need.command)).ok).toBe(true);
      }
      return step.attempt.needs;
    });
    expect(claims.map((c) => c.calendar)).toEqual(["provider", "provider", "service"]);
    // Meanwhile the visit's time is held everywhere: the colour's seat and the stylist are taken.
    expect((await rowsOf(s, s.colour)).map((r) => r.kind)).toEqual(["segment"]);
    expect(
      (await postBooking(s.apiKey, bookingBody(s.colour, plus(start, 30), { endTime: plus(start, 90) }))).status,
    ).toBe(409);
    // The deadline passes; the entry's alarm runs with no request arriving.
    await runInDurableObject(entry, (_i, state) => {
      state.storage.sql.exec("UPDATE bookings SET tentative_until_ms = 1 WHERE tentative_until_ms IS NOT NULL");
    });
    await runDurableObjectAlarm(entry);
    await drainTasks(s, s.cut);
    expect(await rowsOf(s, s.cut)).toEqual([]);
    expect(await rowsOf(s, s.colour)).toEqual([]);
    expect(await claimsOf(s, stylist)).toEqual([]);
    expect(await d1Bookings(s.businessId)).toEqual([]);
    // A late duplicate of the released seat claim cannot take the seat back.
    const seat = claims.find((c) => c.calendar === "service") as {
      command: SeatCommand;
      calendar: "service";
      id: string;
    };
    expect((await claimTargetOf(env, s.businessId, seat).claim(seat.command)).ok).toBe(false);
    await expectConsistent(s);
    expect((await postVisit(s.apiKey, cutThenColour(s, start, stylist))).status).toBe(201);
  });

  it.each(["before", "after"] as const)(
    "a later segment's calendar reset %s confirming: the visit stands, its seat stays held, the alarm completes it",
    async (when) => {
      const s = await spa();
      const [stylist] = s.stylists as [string];
      const start = at(3, "12:00");
      await injectFaults(calendarStub(s.businessId, s.colour), { confirm: when });
      const res = await postVisit(s.apiKey, cutThenColour(s, start, stylist));
      expect(res.status).toBe(201);
      const visit = await json(res);
      // Until the confirmation lands the seat is held: nobody else gets that time.
      const other = bookingBody(s.colour, plus(start, 30), { endTime: plus(start, 90) });
      expect((await postBooking(s.apiKey, other)).status).toBe(409);
      await injectFaults(calendarStub(s.businessId, s.colour), { confirm: undefined });
      await drainTasks(s, s.cut);
      expect((await rowsOf(s, s.colour)).map((r) => r.kind)).toEqual(["booking"]);
      const stored = await json(await api("GET", `/appointments/${visit.id}`, { key: s.apiKey }));
      expect(stored.bookings.map((b: { id: string }) => b.id)).toEqual(visit.bookings.map((b: { id: string }) => b.id));
      await expectConsistent(s);
    },
  );
});
