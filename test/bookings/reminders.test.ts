/**
 * Reminders: a `booking.reminder` event at start − offset for each of the service's reminders,
 * sent by the calendar's one alarm with no request arriving; moved with a reschedule, dropped by
 * a cancel, skipped when past, planned anew when the service's reminders change; sent exactly
 * once (one event id) across a reset at the step that sends it.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serviceCalendarOf } from "../../src/calendar";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { services, webhookEvents } from "../../src/db/schema";
import { serviceSnapshotOf } from "../../src/services/snapshot";
import { api, createAccount, createService, db, json } from "../support/api";
import { allDay, bookingBody, calendarStub, plus, postBooking } from "../support/bookings";
import { injectFaults } from "../support/faults";
import { createWebhook, unreachableReceiver } from "../support/fixtures";

const MINUTE = 60_000;

/** A minute-aligned instant `minutes` from now. */
const inMinutes = (minutes: number) =>
  new Date(Math.ceil((Date.now() + minutes * MINUTE) / MINUTE) * MINUTE).toISOString();

async function clinic(reminders: number[], fields: Record<string, unknown> = {}) {
  const account = await createAccount();
  const service = await createService(account.apiKey, {
    slotIntervalMinutes: 1,
    weeklySchedule: allDay,
    reminders: reminders.map((offsetMinutes) => ({ offsetMinutes })),
    ...fields,
  });
  return { ...account, serviceId: service.id as string, stub: calendarStub(account.businessId, service.id) };
}

async function book(key: string, serviceId: string, startTime: string) {
  const res = await postBooking(key, bookingBody(serviceId, startTime));
  expect(res.status).toBe(201);
  return json(res);
}

/** The planned reminders of a booking, as its calendar's table holds them: offset and due instant. */
const planned = (stub: DurableObjectStub<ServiceCalendar>, id: string) =>
  runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec<{ offset_minutes: number; due_ms: number }>(
        "SELECT offset_minutes, due_ms FROM reminders WHERE booking_id = ? ORDER BY due_ms",
        id,
      )
      .toArray()
      .map((r) => ({ offset: r.offset_minutes, due: new Date(r.due_ms).toISOString() })),
  );

/** The `booking.reminder` events D1 recorded for the business: [offsetMinutes, booking id, event id]. */
async function remindersSent(businessId: string) {
  const rows = await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, businessId));
  return rows
    .filter((r) => r.type === "booking.reminder")
    .map((r: { payload: string; id: string }) => {
      const { data } = JSON.parse(r.payload) as { data: { offsetMinutes: number; booking: { id: string } } };
      return { offset: data.offsetMinutes, booking: data.booking.id, id: r.id };
    });
}

/** Time moves to `iso` and the calendar's alarm runs, as it would then. */
async function alarmAt(stub: DurableObjectStub<ServiceCalendar>, iso: string) {
  vi.setSystemTime(Date.parse(iso));
  await runDurableObjectAlarm(stub);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("happy", () => {
  it("one event per offset at start − offset, by the alarm alone; the alarm waits for the first", async () => {
    const c = await clinic([1440, 60]);
    const start = inMinutes(3 * 1440);
    const booking = await book(c.apiKey, c.serviceId, start);
    const dayBefore = plus(start, -1440);
    const hourBefore = plus(start, -60);
    expect(await planned(c.stub, booking.id)).toEqual([
      { offset: 1440, due: new Date(dayBefore).toISOString() },
      { offset: 60, due: new Date(hourBefore).toISOString() },
    ]);
    await runDurableObjectAlarm(c.stub);
    expect(await remindersSent(c.businessId)).toEqual([]);
    expect(await runInDurableObject(c.stub, (_i, state) => state.storage.getAlarm())).toBe(Date.parse(dayBefore));

    await alarmAt(c.stub, plus(dayBefore, 0.5));
    expect((await remindersSent(c.businessId)).map((r: { offset: number }) => r.offset)).toEqual([1440]);
    await alarmAt(c.stub, plus(hourBefore, 0.5));
    await alarmAt(c.stub, plus(hourBefore, 1));
    const sent = await remindersSent(c.businessId);
    expect(sent.map((r) => [r.offset, r.booking])).toEqual([
      [1440, booking.id],
      [60, booking.id],
    ]);
  });

  it("a reminder already past when booked is skipped; the others stand", async () => {
    const c = await clinic([60, 5]);
    const booking = await book(c.apiKey, c.serviceId, inMinutes(30));
    expect((await planned(c.stub, booking.id)).map((r: { offset: number }) => r.offset)).toEqual([5]);
  });

  it("a reschedule moves the reminders; a cancel drops them", async () => {
    const c = await clinic([120]);
    const booking = await book(c.apiKey, c.serviceId, inMinutes(1440));
    const later = inMinutes(2 * 1440);
    const moved = await api("POST", `/bookings/${booking.id}/reschedule`, {
      key: c.apiKey,
      body: { startTime: later, endTime: plus(later, 30) },
    });
    expect(moved.status).toBe(200);
    expect(await planned(c.stub, booking.id)).toEqual([
      { offset: 120, due: new Date(plus(later, -120)).toISOString() },
    ]);
    // At the old due time nothing is sent.
    await alarmAt(c.stub, plus(booking.startTime, -119));
    expect(await remindersSent(c.businessId)).toEqual([]);
    vi.useRealTimers();
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: c.apiKey, body: {} })).status).toBe(200);
    expect(await planned(c.stub, booking.id)).toEqual([]);
    await alarmAt(c.stub, plus(later, -119));
    expect(await remindersSent(c.businessId)).toEqual([]);
  });

  it("changing the service's reminders plans every upcoming booking's anew", async () => {
    const c = await clinic([1440]);
    const booking = await book(c.apiKey, c.serviceId, inMinutes(3 * 1440));
    const patched = await api("PATCH", `/services/${c.serviceId}`, {
      key: c.apiKey,
      body: { reminders: [{ offsetMinutes: 30 }, { offsetMinutes: 180 }] },
    });
    expect(patched.status).toBe(200);
    expect((await planned(c.stub, booking.id)).map((r: { offset: number }) => r.offset)).toEqual([180, 30]);
    await api("PATCH", `/services/${c.serviceId}`, { key: c.apiKey, body: { reminders: [] } });
    expect(await planned(c.stub, booking.id)).toEqual([]);
  });

  it("offsets are exact durations across a DST change (a day before is 1,440 minutes before)", async () => {
    const c = await clinic([1440], { timezone: "Europe/Berlin" });
    // Berlin moves to summer time at 01:00 UTC on 28 March 2027.
    const afterChange = "2027-03-29T08:00:00.000Z"; // 10:00 CEST
    const acrossChange = "2027-03-28T08:00:00.000Z"; // 10:00 CEST, the day of the change
    const a = await book(c.apiKey, c.serviceId, afterChange);
    const b = await book(c.apiKey, c.serviceId, acrossChange);
    expect(await planned(c.stub, a.id)).toEqual([{ offset: 1440, due: "2027-03-28T08:00:00.000Z" }]); // 10:00 CEST
    expect(await planned(c.stub, b.id)).toEqual([{ offset: 1440, due: "2027-03-27T08:00:00.000Z" }]); // 09:00 CET
  });
});

describe("security", () => {
  it("erasing the customer scrubs their reminders recorded in D1", async () => {
    const c = await clinic([60]);
    const res = await postBooking(
      c.apiKey,
      bookingBody(c.serviceId, inMinutes(600), { customerName: "Zelda Quixote", customerEmail: "zq@example.com" }),
    );
    const booking = await json(res);
    await alarmAt(c.stub, plus(booking.startTime, -59));
    vi.useRealTimers();
    const payloadOf = async () =>
      (await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, c.businessId)))
        .filter((r) => r.type === "booking.reminder")
        .map((r: { payload: string }) => r.payload)
        .join("\n");
    expect(await payloadOf()).toContain("Zelda Quixote");
    expect((await api("DELETE", `/customers/${booking.customerId}`, { key: c.apiKey })).status).toBe(204);
    const after = await payloadOf();
    expect(after).toContain(booking.id);
    expect(after).not.toMatch(/Zelda|zq@example/);
  });
});

describe("error", () => {
  it.each([
    ["an offset under 5 minutes", [{ offsetMinutes: 4 }], "reminders.0.offsetMinutes"],
    ["an offset over 30 days", [{ offsetMinutes: 43_201 }], "reminders.0.offsetMinutes"],
    ["an offset listed twice", [{ offsetMinutes: 60 }, { offsetMinutes: 60 }], "reminders.1.offsetMinutes"],
    ["six reminders", [5, 10, 15, 20, 25, 30].map((offsetMinutes) => ({ offsetMinutes })), "reminders"],
  ])("%s is a 422", async (_, reminders, path) => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/services", {
      key: apiKey,
      body: { name: "R", durationMinutes: 30, timezone: "UTC", weeklySchedule: {}, reminders },
    });
    expect(res.status).toBe(422);
    expect((await json(res)).errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

describe("faults", () => {
  it("a reset inside the step that sends a reminder sends it once, at the next alarm", async () => {
    const c = await clinic([60]);
    const booking = await book(c.apiKey, c.serviceId, inMinutes(600));
    // The object dies after the reminder's event is written, before its transaction commits.
    await runInDurableObject(c.stub, (instance: ServiceCalendar) => {
      const events = (instance as unknown as { tables: { events: { raiseReminder: (...a: unknown[]) => void } } })
        .tables.events;
      const real = events.raiseReminder.bind(events);
      events.raiseReminder = (...args: unknown[]) => {
        real(...args);
        events.raiseReminder = real;
        throw new Error("injected: reset before the reminder's commit");
      };
    });
    vi.setSystemTime(Date.parse(plus(booking.startTime, -59)));
    await expect(runDurableObjectAlarm(c.stub)).rejects.toThrow(/injected/);
    expect(await remindersSent(c.businessId)).toEqual([]);
    expect(await planned(c.stub, booking.id)).toHaveLength(1);
    // The runtime runs a failed alarm again.
    await runInDurableObject(c.stub, (_i, state) => state.storage.setAlarm(Date.now()));
    expect(await runDurableObjectAlarm(c.stub)).toBe(true);
    await runDurableObjectAlarm(c.stub);
    expect((await remindersSent(c.businessId)).map((r) => r.booking)).toEqual([booking.id]);
  });

  it("a reset after it is sent, before the queue has it, delivers it later with the same event id", async () => {
    const c = await clinic([60]);
    await createWebhook(c.apiKey, { url: unreachableReceiver(), events: ["booking.reminder"] });
    const booking = await book(c.apiKey, c.serviceId, inMinutes(600));
    await injectFaults(c.stub, {
      publish: async () => {
        throw new Error("injected: reset before the queue");
      },
    });
    await alarmAt(c.stub, plus(booking.startTime, -59));
    const [first] = await remindersSent(c.businessId);
    expect(first?.booking).toBe(booking.id);
    const waiting = await runInDurableObject(c.stub, (_i, state) =>
      state.storage.sql
        .exec<{ id: string; stage: string }>("SELECT id, stage FROM events WHERE type = 'booking.reminder'")
        .toArray(),
    );
    expect(waiting).toEqual([{ id: first?.id, stage: "queue" }]);
    await injectFaults(c.stub, { publish: undefined });
    await runInDurableObject(c.stub, (_i, state) => state.storage.sql.exec("UPDATE events SET next_attempt_ms = 0"));
    await runDurableObjectAlarm(c.stub);
    const gone = await runInDurableObject(
      c.stub,
      (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM events").one().n,
    );
    expect(gone).toBe(0);
    expect(await remindersSent(c.businessId)).toEqual([first]);
  });
});

describe("scale", () => {
  it("1,000 bookings with reminders keep one alarm, at the first due reminder, and all are sent", async () => {
    const c = await clinic([60], { capacity: 1000 });
    const [row] = await db().select().from(services).where(eq(services.id, c.serviceId));
    const first = Date.parse(inMinutes(600));
    const bookings = Array.from({ length: 1000 }, (_, i) => {
      const startTime = new Date(first + (i % 500) * MINUTE * 7).toISOString();
      return {
        customerName: `Customer ${i}`,
        customerEmail: `c${i}@example.com`,
        customerPhone: null,
        startTime,
        endTime: plus(startTime, 30),
        notes: null,
      };
    });
    const service = serviceSnapshotOf(row as typeof services.$inferSelect);
    const result = await serviceCalendarOf(env, service.businessId, service.id).importBookings(service, bookings);
    expect(result).toEqual({ imported: 1000, refused: [] });
    const { rows, alarm } = await runInDurableObject(c.stub, async (_i, state) => ({
      rows: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM reminders").one().n,
      alarm: await state.storage.getAlarm(),
    }));
    expect(rows).toBe(1000);
    // Set for the earliest pending work; once the writes behind are done, the first reminder.
    expect(alarm).toBeLessThanOrEqual(first - 60 * MINUTE);
    await runDurableObjectAlarm(c.stub);
    expect(await runInDurableObject(c.stub, (_i, state) => state.storage.getAlarm())).toBe(first - 60 * MINUTE);
    vi.setSystemTime(first + 600 * 7 * MINUTE);
    // Each alarm turns up to 500 into events and writes a batch to D1, then sets itself again.
    let runs = 0;
    while ((await remindersSent(c.businessId)).length < 1000 && runs < 100) {
      await runDurableObjectAlarm(c.stub);
      runs++;
    }
    expect(await remindersSent(c.businessId)).toHaveLength(1000);
    expect(await runInDurableObject(c.stub, (_i, state) => state.storage.getAlarm())).toBeNull();
  }, 120_000);
});
