/**
 * Faults of connected calendars against a real CalDAV server: the server down (stopped) and back up,
 * one `calendar.sync_failed` per outage, the last busy times kept meanwhile, malformed events
 * skipped and counted, and the person's calendar object reset at each step of a read and of a
 * write (a real reset, `ctx.abort`, from inside the request) without losing or duplicating
 * anything.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { webhookDeliveries, webhookEvents } from "../../src/db/schema";
import { api, db, json, problem } from "../support/api";
import { at, book, bookingBody, postBooking } from "../support/bookings";
import {
  connect,
  eventsIn,
  localApi,
  newCollection,
  ownServer,
  providerStub,
  putEvent,
  syncNow,
  vcalendar,
  vevent,
} from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { createWebhook, salon } from "../support/fixtures";
import type { ConnectedCalendarFaults, ProviderCalendar as TestProviderCalendar } from "../support/worker";

/** Puts staff-calendar faults on the person's live calendar object. */
async function inject(businessId: string, providerId: string, faults: ConnectedCalendarFaults) {
  await runInDurableObject(providerStub(businessId, providerId), (instance: ProviderCalendar) => {
    Object.assign((instance as TestProviderCalendar).faults, faults);
  });
}

/** The `calendar.sync_failed` events D1 has for the business. */
const failures = (businessId: string) =>
  db()
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.type, "calendar.sync_failed")));

/** Whether the person can be booked at `start` (a named booking, answered 201 or 409 `provider_busy`). */
async function bookable(key: string, serviceId: string, person: string, start: string): Promise<boolean> {
  const res = await postBooking(key, bookingBody(serviceId, start, { providerId: person }));
  if (res.status === 201) return true;
  expect((await problem(res, 409, "slot_unavailable")).reason).toBe("provider_busy");
  return false;
}

describe("a calendar server that fails", () => {
  it("down: failing with the error, busy times kept, one calendar.sync_failed per outage; back up: ok", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const hook = await createWebhook(s.apiKey, { events: ["calendar.sync_failed"] });
    const server = await ownServer();
    const collection = await newCollection(server.url);
    await putEvent(collection, "dentist", vcalendar(vevent("dentist", at(3, "10:00"), at(3, "11:00"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    expect(calendar.syncStatus).toBe("ok");

    await server.stop();
    const down = await syncNow(s.apiKey, person, calendar.id);
    expect(down).toMatchObject({ syncStatus: "failing", lastSyncedAt: calendar.lastSyncedAt });
    expect(down.lastError).toMatch(/could not be reached|did not answer/);
    expect(down.failingSince).toEqual(expect.any(String));
    // Retries (on demand and by the alarm) are the same outage: one event, delivered to the endpoint.
    for (let i = 0; i < 3; i++) await syncNow(s.apiKey, person, calendar.id);
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    const [event] = await eventually(async () => {
      const rows = await failures(s.businessId);
      return rows.length > 0 ? rows : undefined;
    }, "the calendar.sync_failed event in D1");
    expect(JSON.parse(event?.payload ?? "{}").data).toEqual({
      calendarId: calendar.id,
      providerId: person,
      url: collection,
      error: down.lastError,
      failingSince: down.failingSince,
      lastSyncedAt: calendar.lastSyncedAt,
    });
    const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id));
    expect(deliveries.map((d) => d.eventType)).toEqual(["calendar.sync_failed"]);
    // The last busy times still count while it fails.
    expect(await bookable(s.apiKey, s.cut, person, at(3, "10:00"))).toBe(false);

    await server.start();
    const up = await syncNow(s.apiKey, person, calendar.id);
    expect(up).toMatchObject({ syncStatus: "ok", lastError: null, failingSince: null });
    expect(await failures(s.businessId)).toHaveLength(1);

    // A new outage is a new event.
    await server.stop();
    expect((await syncNow(s.apiKey, person, calendar.id)).syncStatus).toBe("failing");
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    await eventually(async () => ((await failures(s.businessId)).length === 2 ? true : undefined), "a second event");
    await server.start();
  });

  it("a calendar that answers something else than CalDAV is failing with a clear error, never a 500", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const { caldavBase } = await import("../support/connected-calendars");
    // The server's root is not a calendar collection: its listing is not a calendar-query answer.
    const res = await localApi("POST", `/providers/${person}/calendars`, s.apiKey, { url: `${caldavBase()}/nowhere/` });
    expect(res.status).toBe(201);
    const calendar = await res.json<{ syncStatus: string; lastError: string }>();
    expect(calendar.syncStatus).toBe("failing");
    expect(calendar.lastError).toMatch(/HTTP 404|not found/i);
  });

  it("malformed events are skipped and counted; the rest still block", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "dentist", vcalendar(vevent("dentist", at(3, "10:00"), at(3, "11:00"))));
    // Without Content-Type: text/calendar, Xandikos stores any bytes unchecked (as a broken client could).
    const broken = await fetch(`${collection}broken.ics`, {
      method: "PUT",
      body: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:not-a-date\r\nEND:VCALENDAR\r\n",
    });
    await broken.body?.cancel();
    const calendar = await connect(s.apiKey, person, { url: collection });
    expect(calendar).toMatchObject({ syncStatus: "ok", eventsSkipped: expect.any(Number) });
    expect(await bookable(s.apiKey, s.cut, person, at(3, "10:00"))).toBe(false);
    expect(await bookable(s.apiKey, s.cut, person, at(3, "12:00"))).toBe(true);
  });
});

describe("a reset of the person's calendar object", () => {
  for (const step of ["the change marker", "the listing", "the fetch of new events"] as const) {
    it(`after ${step} loses nothing: the next read stores what the interrupted one fetched`, async () => {
      const s = await salon(1);
      const [person] = s.providerIds as [string];
      const collection = await newCollection();
      await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "10:30"))));
      const calendar = await connect(s.apiKey, person, { url: collection });
      await putEvent(collection, "b", vcalendar(vevent("b", at(3, "12:00"), at(3, "12:30"))));
      const matches = (body: string, request: Request) =>
        step === "the change marker"
          ? request.method === "PROPFIND"
          : step === "the listing"
            ? body.includes("calendar-query")
            : body.includes("calendar-multiget");
      await inject(s.businessId, person, {
        caldav: async (request, real, reset) => {
          const body = request.method === "GET" ? "" : await request.clone().text();
          const answer = await real(request);
          if (matches(body, request)) reset();
          return answer;
        },
      });
      const interrupted = await localApi("POST", `/providers/${person}/calendars/${calendar.id}/sync`, s.apiKey);
      expect(interrupted.status).toBeGreaterThanOrEqual(500);
      await interrupted.body?.cancel();
      // A new instance: the lease re-drives the read; on demand here.
      expect((await syncNow(s.apiKey, person, calendar.id)).syncStatus).toBe("ok");
      expect(await bookable(s.apiKey, s.cut, person, at(3, "10:00"))).toBe(false);
      expect(await bookable(s.apiKey, s.cut, person, at(3, "12:00"))).toBe(false);
      expect(await bookable(s.apiKey, s.cut, person, at(3, "11:00"))).toBe(true);
    });
  }

  it("after a booking's event was written but before its ETag was stored: written again, once", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await connect(s.apiKey, person, { url: collection, writeBookings: true });
    let resets = 0;
    await inject(s.businessId, person, {
      caldav: async (request, real, reset) => {
        const answer = await real(request);
        if (request.method === "PUT" && resets++ === 0) reset();
        return answer;
      },
    });
    const booked = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00")));
    const events = await eventually(async () => {
      await runDurableObjectAlarm(providerStub(s.businessId, person)).catch(() => false);
      const found = await eventsIn(collection);
      const settled = await runInDurableObject(providerStub(s.businessId, person), (_i, state) =>
        state.storage.sql.exec("SELECT count(*) AS n FROM booking_events WHERE next_attempt_ms IS NULL").one(),
      );
      return found.length === 1 && settled.n === 1 ? found : undefined;
    }, "the event written and settled");
    expect(events.map((e) => e.uid)).toEqual([booked.id]);
  });
});

describe("the audit of connecting and disconnecting, across a reset", () => {
  /** The business's audit records of one calendar, as the API lists them. */
  const recordsOf = async (key: string, calendarId: string) =>
    (await json(await api("GET", `/audit-events?resourceId=${calendarId}`, { key }))).data as {
      action: string;
      actor: { type: string };
    }[];

  /** Resets the person's object (a real reset, `ctx.abort`): what it committed stays, its memory goes. */
  const reset = (businessId: string, person: string) =>
    runInDurableObject(providerStub(businessId, person), (_instance, state) => state.abort("injected: reset")).catch(
      () => undefined,
    );

  it("the answer lost once connecting committed, then the object reset: its alarm writes the record the request never did, once; so for disconnecting", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await inject(s.businessId, person, { change: "after" });
    const lost = await localApi("POST", `/providers/${person}/calendars`, s.apiKey, { url: collection });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    await lost.body?.cancel();
    await reset(s.businessId, person);
    // The new instance holds the calendar, and its alarm writes the record the request never did.
    const [calendar] = (await json(await localApi("GET", `/providers/${person}/calendars`, s.apiKey))).data as {
      id: string;
    }[];
    expect(calendar).toBeDefined();
    const id = (calendar as { id: string }).id;
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    await eventually(async () => ((await recordsOf(s.apiKey, id)).length === 1 ? true : undefined), "the record");
    expect(await recordsOf(s.apiKey, id)).toMatchObject([{ action: "calendar.connected", actor: { type: "apiKey" } }]);

    await inject(s.businessId, person, { change: "after" });
    expect(await recordsOf(s.apiKey, id)).toHaveLength(1);
    const gone = await localApi("DELETE", `/providers/${person}/calendars/${id}`, s.apiKey);
    expect(gone.status).toBeGreaterThanOrEqual(500);
    await gone.body?.cancel();
    await reset(s.businessId, person);
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    await eventually(async () => ((await recordsOf(s.apiKey, id)).length === 2 ? true : undefined), "both records");
    // Alarms again write nothing more: each record is kept until D1 has it, under the change's id.
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    expect((await recordsOf(s.apiKey, id)).map((r) => r.action)).toEqual([
      "calendar.disconnected",
      "calendar.connected",
    ]);
  });
});
