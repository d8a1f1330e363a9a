/**
 * The claim protocol with two claimed calendars (a person and a room): a fault at any step — a
 * reset of either claimed calendar before or after its write, of the entry between its
 * transactions, or of a release — leaves the booking everywhere or nowhere, nothing held past
 * the deadline, and reconciliation clean (docs/consistency.md, "The claim protocol").
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { claimedCalendarOf, claimTargetOf } from "../../src/calendar/stubs";
import { api, createAccount, createService, json, problem } from "../support/api";
import { at, book, bookingBody, calendarStub, d1Bookings, postBooking } from "../support/bookings";
import { createResource, newProvider } from "../support/fixtures";
import type { ProviderCalendar as FaultyProvider, ResourceCalendar as FaultyResource } from "../support/worker";

/** The calendars this file injects faults into. */
type Kind = "provider" | "resource";

type Fault = { claim?: "before" | "after"; release?: "before" | "after" };

/** A clinic: one hygienist and one chair, and two services (clean, polish) that need both. */
async function clinic() {
  const account = await createAccount("Clinic");
  const person = await newProvider(account.apiKey, "Hygienist");
  const chair = (await createResource(account.apiKey, { name: "Chair" })).id as string;
  const clean = (await createService(account.apiKey, { name: "Clean", providerIds: [person], resourceIds: [chair] }))
    .id as string;
  const polish = (await createService(account.apiKey, { name: "Polish", providerIds: [person], resourceIds: [chair] }))
    .id as string;
  const ids: Record<Kind, string> = { provider: person, resource: chair };
  return { ...account, person, chair, clean, polish, ids };
}
type Clinic = Awaited<ReturnType<typeof clinic>>;

const calendarOf = (c: Clinic, kind: Kind) => claimedCalendarOf(env, c.businessId, { calendar: kind, id: c.ids[kind] });

async function setFault(c: Clinic, kind: Kind, fault: Fault) {
  await runInDurableObject(calendarOf(c, kind), (instance) => {
    Object.assign(
      (instance as unknown as FaultyProvider | FaultyResource).faults,
      { claim: undefined, release: undefined },
      fault,
    );
  });
}

const claimIds = async (c: Clinic, kind: Kind) =>
  (await calendarOf(c, kind).snapshot()).claims.map((claim) => claim.claimId);

/** Makes the entry's owed releases due now and runs its alarm (what time would do). */
async function drainReleases(c: Clinic) {
  const stub = calendarStub(c.businessId, c.clean);
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("UPDATE claim_tasks SET next_attempt_ms = 0");
  });
  await runDurableObjectAlarm(stub);
}

async function expectConsistent(c: Clinic) {
  const services = await reconcile(env, { businessId: c.businessId });
  expect(services.differences).toEqual([]);
  const people = await reconcileClaimed(env, { businessId: c.businessId });
  expect(people.differences).toEqual([]);
}

describe.each(["provider", "resource"] as const)("a %s calendar that fails a claim", (kind) => {
  it.each(["before", "after"] as const)(
    "%s its write: 503, then nothing held anywhere; a retry books",
    async (when) => {
      const c = await clinic();
      const start = at(4, "10:00");
      await setFault(c, kind, { claim: when });
      await problem(await postBooking(c.apiKey, bookingBody(c.clean, start)), 503, "unavailable");
      await setFault(c, kind, {});
      await drainReleases(c);
      expect(await claimIds(c, "provider")).toEqual([]);
      expect(await claimIds(c, "resource")).toEqual([]);
      expect(await d1Bookings(c.businessId, c.clean)).toEqual([]);
      await expectConsistent(c);
      const booking = await book(c.apiKey, bookingBody(c.clean, start));
      expect(await claimIds(c, "provider")).toEqual([booking.id]);
      expect(await claimIds(c, "resource")).toEqual([booking.id]);
      await expectConsistent(c);
    },
  );
});

describe("the entry calendar reset between its transactions", () => {
  it("after its tentative row and the first claim: the deadline alarm releases it; nothing stays held", async () => {
    const c = await clinic();
    const start = at(4, "11:00");
    const entry = calendarStub(c.businessId, c.clean);
    const read = async (path: string) => ({
      ...(await json(await api("GET", path, { key: c.apiKey }))),
      businessId: c.businessId,
    });
    const [service, person, chair] = await Promise.all([
      read(`/services/${c.clean}`),
      read(`/providers/${c.person}`),
      read(`/resources/${c.chair}`),
    ]);
    // Step 1 and the first claim of step 2 happen; then the entry is reset (nothing more runs).
    const claimed = await runInDurableObject(entry, async (instance, state) => {
      const { creating } = await import("../../src/calendar/service/flows/create-booking");
      // biome-ignore lint/suspicious/noExplicitAny: the test drives the calendar's private tables
      const tables = (instance as any).tables;
      const command = {
        service: { ...service, version: 1 },
        booking: { ...bookingBody(c.clean, start), customerPhone: null, notes: null },
        customerId: null,
        providers: [{ ...person, version: 1 }],
        resources: [{ ...chair, version: 1 }],
      };
      const candidates = [{ providerId: c.person, providers: command.providers, resources: command.resources }];
      const step = state.storage.transactionSync(() => creating.begin({ tables, command, candidates }, Date.now()));
      if (step.kind !== "claim") throw new Error("expected a claim step");
      const [first] = step.attempt.needs;
      if (!first) throw new Error("expected claims");
      const answer = await claimTargetOf(env, c.businessId, first).claim(first.command);
      expect(answer.ok).toBe(true);
      return { kind: first.calendar as Kind, id: first.claimId, needs: step.attempt.needs.length };
    });
    expect(claimed.needs).toBe(2);
    expect(await claimIds(c, claimed.kind)).toEqual([claimed.id]);
    // The seat and the claimed calendar are held meanwhile: the other service is refused.
    expect((await postBooking(c.apiKey, bookingBody(c.polish, start))).status).toBe(409);
    // The deadline passes; the alarm runs with no request arriving.
    await runInDurableObject(entry, (_instance, state) => {
      state.storage.sql.exec("UPDATE bookings SET tentative_until_ms = 1 WHERE tentative_until_ms IS NOT NULL");
    });
    await drainReleases(c);
    expect(await claimIds(c, "provider")).toEqual([]);
    expect(await claimIds(c, "resource")).toEqual([]);
    expect(await d1Bookings(c.businessId, c.clean)).toEqual([]);
    await expectConsistent(c);
    expect((await postBooking(c.apiKey, bookingBody(c.polish, start))).status).toBe(201);
  });
});

describe.each(["provider", "resource"] as const)("a %s calendar that fails a release", (kind) => {
  it.each(["before", "after"] as const)("%s its write: the release stays owed and lands by the alarm", async (when) => {
    const c = await clinic();
    const start = at(4, "12:00");
    const booking = await book(c.apiKey, bookingBody(c.clean, start));
    await setFault(c, kind, { release: when });
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: c.apiKey, body: {} })).status).toBe(200);
    // The other calendar released at once; this one holds the time until its release lands.
    const other = kind === "provider" ? "resource" : "provider";
    expect(await claimIds(c, other)).toEqual([]);
    if (when === "before") {
      // Still held there, so another service needing that calendar is refused, never double-booked.
      expect(await claimIds(c, kind)).toEqual([booking.id]);
      expect((await postBooking(c.apiKey, bookingBody(c.polish, start))).status).toBe(409);
    }
    await setFault(c, kind, {});
    await drainReleases(c);
    expect(await claimIds(c, kind)).toEqual([]);
    await expectConsistent(c);
    expect((await postBooking(c.apiKey, bookingBody(c.polish, start))).status).toBe(201);
  });
});

describe("reconciliation of people's and resources' calendars", () => {
  it("is clean for a team's booking with a room, and reports the room's lost claim by resourceId", async () => {
    const account = await createAccount();
    const a = await newProvider(account.apiKey, "A");
    const b = await newProvider(account.apiKey, "B");
    const room = (await createResource(account.apiKey, { name: "Room" })).id as string;
    const duo = await createService(account.apiKey, { providerIds: [a, b], providerMode: "all", resourceIds: [room] });
    const booking = await book(account.apiKey, bookingBody(duo.id, at(5, "10:00")));
    const scope = { businessId: account.businessId };
    const clean = await reconcileClaimed(env, scope);
    expect(clean).toMatchObject({ providers: 2, resources: 1, claims: 3, differences: [], consistent: true });
    await claimedCalendarOf(env, account.businessId, { calendar: "resource", id: room }).release(booking.id);
    const lost = await reconcileClaimed(env, scope);
    expect(lost.consistent).toBe(false);
    expect(lost.differences).toEqual([
      { businessId: account.businessId, resourceId: room, bookingId: booking.id, kind: "booking_without_claim" },
    ]);
  });
});
