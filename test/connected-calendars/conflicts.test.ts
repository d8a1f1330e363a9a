/**
 * Conflicts from a person's own calendar on a real CalDAV server (Xandikos): an event that comes
 * to cover one of their bookings is found at the next read, shown on the booking and in
 * `GET /bookings?conflicted=true`, told once by `booking.conflict` however many reads follow, and
 * cleared (once, `booking.conflict_resolved`) when the event is deleted or the booking cancelled.
 * A transparent event never conflicts; a reset of the object between finding and sending sends once.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { webhookDeliveries, webhookEvents } from "../../src/db/schema";
import { api, db, json } from "../support/api";
import { at, book, bookingBody, dayOf } from "../support/bookings";
import {
  connect,
  deleteEvent,
  localApi,
  newCollection,
  providerStub,
  putEvent,
  syncNow,
  vcalendar,
  vevent,
} from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { createWebhook, salon } from "../support/fixtures";
import type { ProviderCalendar as TestProviderCalendar } from "../support/worker";

const EVENTS = ["booking.conflict", "booking.conflict_resolved"];

/** A salon of one person, subscribed to conflicts, with bookings at `times` (day 3, UTC) and an empty calendar connected. */
async function setUp(...times: string[]) {
  const s = await salon(1);
  const [person] = s.providerIds as [string];
  const hook = await createWebhook(s.apiKey, { events: EVENTS });
  const bookings: { id: string }[] = [];
  for (const time of times)
    bookings.push(await book(s.apiKey, bookingBody(s.cut, at(3, time), { providerId: person })));
  const collection = await newCollection();
  const calendar = await connect(s.apiKey, person, { url: collection });
  return { s, person, hook, bookings, collection, calendar };
}

type World = Awaited<ReturnType<typeof setUp>>;

/** Reads the calendar now, then lets the object's alarm push what it found to D1 and the queue. */
async function syncAndSettle(w: World) {
  await syncNow(w.s.apiKey, w.person, w.calendar.id);
  await runDurableObjectAlarm(providerStub(w.s.businessId, w.person));
}

const conflictsOf = async (w: World, id: string) =>
  (await json(await api("GET", `/bookings/${id}`, { key: w.s.apiKey }))).conflicts;

/** The conflict events D1 recorded for the business, by type. */
async function told(w: World) {
  const rows = await db()
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.businessId, w.s.businessId)));
  const count = (type: string) => rows.filter((r) => r.type === type).length;
  return { conflict: count("booking.conflict"), resolved: count("booking.conflict_resolved"), rows };
}

/** Syncs until the booking shows `n` conflicts. */
const showsConflicts = (w: World, id: string, n: number) =>
  eventually(async () => {
    const conflicts = await conflictsOf(w, id);
    return conflicts.length === n ? conflicts : undefined;
  }, `${n} conflicts on ${id}`);

/** The full story of one event: found, listed, told once over 5 more reads, cleared when deleted. */
async function foundToldOnceCleared(w: World, put: () => Promise<string>, hit: string, missed: string[] = []) {
  const member = await put();
  await syncAndSettle(w);
  const [conflict] = await showsConflicts(w, hit, 1);
  expect(conflict).toEqual({
    kind: "calendar_busy",
    detectedAt: expect.stringMatching(/Z$/),
    detail: expect.stringContaining("busy from"),
  });
  for (const id of missed) expect(await conflictsOf(w, id)).toEqual([]);
  const listed = await json(await api("GET", "/bookings?conflicted=true", { key: w.s.apiKey }));
  expect(listed.data.map((b: { id: string }) => b.id)).toEqual([hit]);
  expect(listed.pagination.total).toBe(1);
  const others = await json(await api("GET", "/bookings?conflicted=false", { key: w.s.apiKey }));
  expect(others.data.map((b: { id: string }) => b.id).sort()).toEqual([...missed].sort());

  for (let i = 0; i < 5; i++) await syncAndSettle(w);
  const once = await told(w);
  expect(once).toMatchObject({ conflict: 1, resolved: 0 });
  const payload = JSON.parse(once.rows.find((r) => r.type === "booking.conflict")?.payload ?? "{}");
  expect(payload).toMatchObject({ type: "booking.conflict", data: { bookingId: hit, providerId: w.person, conflict } });
  const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, w.hook.id));
  expect(deliveries.map((d) => d.eventType)).toEqual(["booking.conflict"]);

  await deleteEvent(member);
  await syncAndSettle(w);
  await showsConflicts(w, hit, 0);
  for (let i = 0; i < 2; i++) await syncAndSettle(w);
  expect(await told(w)).toMatchObject({ conflict: 1, resolved: 1 });
  expect((await json(await api("GET", "/bookings?conflicted=true", { key: w.s.apiKey }))).data).toEqual([]);
}

describe("conflicts from the person's own calendar", () => {
  it("a single event over a booking", async () => {
    const w = await setUp("10:00", "13:00");
    const [hit, missed] = w.bookings as [{ id: string }, { id: string }];
    await foundToldOnceCleared(
      w,
      () => putEvent(w.collection, "dentist", vcalendar(vevent("dentist", at(3, "10:15"), at(3, "10:45")))),
      hit.id,
      [missed.id],
    );
  });

  it("a recurring event whose 3rd occurrence covers a booking", async () => {
    const w = await setUp("12:00", "15:00");
    const [hit, missed] = w.bookings as [{ id: string }, { id: string }];
    // Daily at 12:00 from day 1: the 3rd is day 3's, over the 12:00 booking.
    const series = vevent("standup", at(1, "12:00"), at(1, "12:30"), "RRULE:FREQ=DAILY;COUNT=5");
    await foundToldOnceCleared(w, () => putEvent(w.collection, "standup", vcalendar(series)), hit.id, [missed.id]);
  });

  it("an all-day event", async () => {
    const w = await setUp("11:00");
    const [hit] = w.bookings as [{ id: string }];
    const day = dayOf(3).replaceAll("-", "");
    const allDay = ["BEGIN:VEVENT", "UID:off", "DTSTAMP:20260101T000000Z", `DTSTART;VALUE=DATE:${day}`, "END:VEVENT"];
    await foundToldOnceCleared(w, () => putEvent(w.collection, "off", vcalendar(allDay.join("\r\n"))), hit.id);
  });

  it("a transparent event is never a conflict", async () => {
    const w = await setUp("10:00");
    const [booking] = w.bookings as [{ id: string }];
    const free = vevent("free", at(3, "09:00"), at(3, "12:00"), "TRANSP:TRANSPARENT");
    await putEvent(w.collection, "free", vcalendar(free));
    for (let i = 0; i < 6; i++) await syncAndSettle(w);
    expect(await conflictsOf(w, booking.id)).toEqual([]);
    expect(await told(w)).toMatchObject({ conflict: 0, resolved: 0 });
  });

  it("cancelling a conflicted booking clears it: [] on the booking, one booking.conflict_resolved", async () => {
    const w = await setUp("10:00");
    const [booking] = w.bookings as [{ id: string }];
    await putEvent(w.collection, "dentist", vcalendar(vevent("dentist", at(3, "10:00"), at(3, "11:00"))));
    await syncAndSettle(w);
    await showsConflicts(w, booking.id, 1);
    const cancelled = await api("POST", `/bookings/${booking.id}/cancel`, { key: w.s.apiKey, body: {} });
    expect(cancelled.status).toBe(200);
    expect((await json(cancelled)).conflicts).toEqual([]);
    await runDurableObjectAlarm(providerStub(w.s.businessId, w.person));
    await eventually(async () => ((await told(w)).resolved === 1 ? true : undefined), "booking.conflict_resolved");
    expect(await conflictsOf(w, booking.id)).toEqual([]);
    for (let i = 0; i < 3; i++) await syncAndSettle(w);
    expect(await told(w)).toMatchObject({ conflict: 1, resolved: 1 });
  });

  it("a cached copy never hides a conflict: the ETag names them, If-Match still reads the version", async () => {
    const w = await setUp("10:00");
    const [booking] = w.bookings as [{ id: string }];
    const path = `/bookings/${booking.id}`;
    const get = (etag: string) => api("GET", path, { key: w.s.apiKey, headers: { "If-None-Match": etag } });
    const before = (await api("GET", path, { key: w.s.apiKey })).headers.get("ETag") as string;
    expect(before).toBe('"v1"');
    const member = await putEvent(w.collection, "d", vcalendar(vevent("d", at(3, "10:00"), at(3, "11:00"))));
    await syncAndSettle(w);
    await showsConflicts(w, booking.id, 1);
    const stale = await get(before);
    expect(stale.status).toBe(200);
    const marked = stale.headers.get("ETag") as string;
    expect(marked).toMatch(/^"v1\.c[0-9a-z]+"$/);
    expect((await json(stale)).conflicts).toHaveLength(1);
    expect((await get(marked)).status).toBe(304);
    const edited = await api("PATCH", path, {
      key: w.s.apiKey,
      body: { notes: "Call first." },
      headers: { "If-Match": marked },
    });
    expect(edited.status).toBe(200);
    await deleteEvent(member);
    await syncAndSettle(w);
    await showsConflicts(w, booking.id, 0);
    const cleared = await get(marked);
    expect(cleared.status).toBe(200);
    expect((await json(cleared)).conflicts).toEqual([]);
  });

  it("a reset of the object between finding a conflict and sending it sends it once", async () => {
    const w = await setUp("10:00");
    const [booking] = w.bookings as [{ id: string }];
    await putEvent(w.collection, "dentist", vcalendar(vevent("dentist", at(3, "10:00"), at(3, "11:00"))));
    await syncNow(w.s.apiKey, w.person, w.calendar.id);
    // Found and committed; nothing sent yet. The next read resets the object at its first request.
    const stub = providerStub(w.s.businessId, w.person);
    await runInDurableObject(stub, (instance: ProviderCalendar) => {
      let resets = 0;
      (instance as TestProviderCalendar).faults.caldav = (request, real, reset) => (resets++ ? real(request) : reset());
    });
    const reset = await localApi("POST", `/providers/${w.person}/calendars/${w.calendar.id}/sync`, w.s.apiKey);
    expect(reset.status).toBeGreaterThanOrEqual(500);
    await reset.body?.cancel();
    expect(await told(w)).toMatchObject({ conflict: 0 });
    // A new instance: no faults; the outbox row survived the reset.
    for (let i = 0; i < 3; i++) await runDurableObjectAlarm(stub).catch(() => false);
    await showsConflicts(w, booking.id, 1);
    for (let i = 0; i < 5; i++) await syncAndSettle(w);
    expect(await told(w)).toMatchObject({ conflict: 1, resolved: 0 });
  });
});
