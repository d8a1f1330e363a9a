/**
 * A release owed to a person's calendar survives a fault at either side of its write: it stays
 * owed in the service calendar, the person's time stays blocked meanwhile (a late release can
 * refuse a booking, never double-book one), and the alarm re-sends it until it lands.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount, createService, json } from "../support/api";
import { at, book, bookingBody, calendarStub, postBooking } from "../support/bookings";
import type { ProviderCalendar as FaultyProviderCalendar } from "../support/worker";

const DAY = [{ start: "09:00", end: "17:00" }];
const everyDay = { mon: DAY, tue: DAY, wed: DAY, thu: DAY, fri: DAY, sat: DAY, sun: DAY };

async function setFault(businessId: string, providerId: string, fault: "before" | "after" | undefined) {
  await runInDurableObject(providerCalendarOf(env, businessId, providerId), (instance: ProviderCalendar) => {
    (instance as FaultyProviderCalendar).faults.release = fault;
  });
}

/** Makes the owed releases of a service calendar due now (their backoff passed) and runs its alarm. */
async function runAlarmWithReleasesDue(businessId: string, serviceId: string) {
  const stub = calendarStub(businessId, serviceId);
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec("UPDATE claim_tasks SET next_attempt_ms = 0");
  });
  await runDurableObjectAlarm(stub);
}

const owed = (businessId: string, serviceId: string) =>
  runInDurableObject(calendarStub(businessId, serviceId), (_instance, state) =>
    state.storage.sql
      .exec<{ claim_id: string }>("SELECT claim_id FROM claim_tasks")
      .toArray()
      .map((r) => r.claim_id),
  );

describe.each(["before", "after"] as const)("a provider calendar that fails %s its release", (fault) => {
  it("keeps the release owed and the time blocked; the alarm lands it once the calendar answers", async () => {
    const { apiKey, businessId } = await createAccount();
    const person = await json(
      await api("POST", "/providers", { key: apiKey, body: { name: "P", timezone: "UTC", weeklySchedule: everyDay } }),
    );
    const cut = await createService(apiKey, { name: "Cut", providerIds: [person.id] });
    const colour = await createService(apiKey, { name: "Colour", providerIds: [person.id] });
    const start = at(4, "10:00");
    const booking = await book(apiKey, bookingBody(cut.id, start));
    await setFault(businessId, person.id, fault);
    const cancelled = await api("POST", `/bookings/${booking.id}/cancel`, { key: apiKey, body: {} });
    expect(cancelled.status).toBe(200);
    expect(await owed(businessId, cut.id)).toEqual([booking.id]);
    const claims = (await providerCalendarOf(env, businessId, person.id).snapshot()).claims;
    if (fault === "before") {
      // Not released yet: the person's time stays blocked for every service.
      expect(claims.map((c) => c.claimId)).toEqual([booking.id]);
      expect((await postBooking(apiKey, bookingBody(colour.id, start))).status).toBe(409);
    } else {
      expect(claims).toEqual([]);
    }
    await runAlarmWithReleasesDue(businessId, cut.id);
    expect(await owed(businessId, cut.id)).toEqual([booking.id]); // still failing: still owed
    await setFault(businessId, person.id, undefined);
    await runAlarmWithReleasesDue(businessId, cut.id);
    expect(await owed(businessId, cut.id)).toEqual([]);
    expect((await providerCalendarOf(env, businessId, person.id).snapshot()).claims).toEqual([]);
    expect((await postBooking(apiKey, bookingBody(colour.id, start))).status).toBe(201);
    const report = await reconcileClaimed(env);
    expect(report.differences.filter((d) => d.businessId === businessId)).toEqual([]);
  });
});
