/**
 * `POST /bookings/{id}/reschedule`: a booking moves without ever losing its seat — the new time
 * passes every rule with the booking itself not counted, the old time is freed in the same step,
 * and a refused move changes nothing. With providers, the person's time follows, across faults.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { webhookEvents } from "../../src/db/schema";
import { api, createAccount, createService, db, json, problem, validationError } from "../support/api";
import { at, book, bookingBody, d1Bookings, plus, postBooking, slotAt, statusCounts } from "../support/bookings";
import type { ProviderCalendar as FaultyProviderCalendar } from "../support/worker";

const DAY = [{ start: "09:00", end: "17:00" }];
const everyDay = { mon: DAY, tue: DAY, wed: DAY, thu: DAY, fri: DAY, sat: DAY, sun: DAY };

function move(key: string, id: string, startTime: string, extra: Record<string, unknown> = {}, headers = {}) {
  return api("POST", `/bookings/${id}/reschedule`, {
    key,
    body: { startTime, endTime: plus(startTime, 30), ...extra },
    headers,
  });
}

async function newProvider(key: string, name: string) {
  const res = await api("POST", "/providers", { key, body: { name, timezone: "UTC", weeklySchedule: everyDay } });
  return (await json(res)).id as string;
}

describe("happy", () => {
  it("moves the booking: same id and status, new version, old seat free, new seat taken", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const from = at(3, "10:00");
    const to = at(3, "14:00");
    const booking = await book(apiKey, bookingBody(service.id, from, { notes: "window seat" }));
    const res = await move(apiKey, booking.id, to);
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v2"');
    const moved = await json(res);
    expect(moved).toMatchObject({ id: booking.id, status: "CONFIRMED", notes: "window seat" });
    expect(moved.startTime).toBe(new Date(to).toISOString());
    expect((await slotAt(apiKey, service.id, from))?.remaining).toBe(1);
    expect((await slotAt(apiKey, service.id, to))?.remaining).toBe(0);
    const [stored] = await d1Bookings(businessId, service.id);
    expect(stored).toMatchObject({ id: booking.id, startTime: new Date(to).toISOString(), version: 2 });
  });

  it("raises booking.rescheduled with the new times, the previous ones and the booking version", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    expect((await move(apiKey, booking.id, at(3, "15:00"))).status).toBe(200);
    const events = (await db().select().from(webhookEvents).where(eq(webhookEvents.type, "booking.rescheduled")))
      .map((e) => JSON.parse(e.payload))
      .filter((p) => p.data.id === booking.id);
    expect(events).toEqual([
      {
        type: "booking.rescheduled",
        timestamp: expect.any(String),
        data: expect.objectContaining({
          id: booking.id,
          version: 2,
          startTime: new Date(at(3, "15:00")).toISOString(),
          previousStartTime: new Date(at(3, "10:00")).toISOString(),
          previousEndTime: new Date(at(3, "10:30")).toISOString(),
          previousProviderId: null,
        }),
      },
    ]);
  });

  it("a move that overlaps the booking's own time is allowed (the booking itself is not counted)", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { durationMinutes: 60, slotIntervalMinutes: 30 });
    const start = at(3, "10:00");
    const booking = await book(apiKey, bookingBody(service.id, start, { endTime: plus(start, 60) }));
    const later = plus(start, 30);
    const res = await api("POST", `/bookings/${booking.id}/reschedule`, {
      key: apiKey,
      body: { startTime: later, endTime: plus(later, 60) },
    });
    expect(res.status).toBe(200);
  });

  it("the same Idempotency-Key replays the move instead of moving twice", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    const headers = { "Idempotency-Key": "move-1" };
    const first = await move(apiKey, booking.id, at(3, "11:00"), {}, headers);
    const again = await move(apiKey, booking.id, at(3, "11:00"), {}, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await json(again)).startTime).toBe((await json(first)).startTime);
  });
});

describe("refusals change nothing", () => {
  it("into a full slot: 409 fully_booked, the booking keeps its time", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const mine = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    await book(apiKey, bookingBody(service.id, at(3, "11:00")));
    const res = await move(apiKey, mine.id, at(3, "11:00"));
    expect((await problem(res, 409, "slot_unavailable")).reason).toBe("fully_booked");
    const now = await json(await api("GET", `/bookings/${mine.id}`, { key: apiKey }));
    expect(now).toMatchObject({ startTime: mine.startTime, updatedAt: mine.updatedAt });
    expect((await slotAt(apiKey, service.id, at(3, "10:00")))?.remaining).toBe(0);
  });

  it("a cancelled booking cannot move (409 invalid_transition); a stale If-Match is a 412", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const a = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    await problem(await move(apiKey, a.id, at(3, "12:00"), {}, { "If-Match": '"v9"' }), 412, "precondition_failed");
    await api("POST", `/bookings/${a.id}/cancel`, { key: apiKey });
    await problem(await move(apiKey, a.id, at(3, "12:00")), 409, "invalid_transition");
  });
});

describe("concurrency", () => {
  it("8 concurrent moves of 8 bookings into one free seat: exactly 1", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const bookings = [];
    for (let i = 0; i < 8; i++)
      bookings.push(await book(apiKey, bookingBody(service.id, at(4, `${String(9 + i).padStart(2, "0")}:00`))));
    const target = at(5, "09:00");
    const responses = await Promise.all(bookings.map((b) => move(apiKey, b.id, target)));
    expect(statusCounts(responses)).toEqual({ 200: 1, 409: 7 });
    expect((await slotAt(apiKey, service.id, target))?.booked).toBe(1);
  });
});

describe("with providers", () => {
  async function salon() {
    const account = await createAccount();
    const ana = await newProvider(account.apiKey, "Ana");
    const ben = await newProvider(account.apiKey, "Ben");
    const cut = await createService(account.apiKey, { name: "Cut", providerIds: [ana, ben] });
    const colour = await createService(account.apiKey, { name: "Colour", providerIds: [ana, ben] });
    return { ...account, ana, ben, cut: cut.id as string, colour: colour.id as string };
  }
  const claims = async (businessId: string, providerId: string) =>
    (await providerCalendarOf(env, businessId, providerId).snapshot()).claims.map((c) => c.start);

  it("changing provider moves the person's time: the old provider is free, the new one busy", async () => {
    const s = await salon();
    const start = at(3, "10:00");
    const booking = await book(s.apiKey, bookingBody(s.cut, start, { providerId: s.ana }));
    const res = await move(s.apiKey, booking.id, start, { providerId: s.ben });
    expect(res.status).toBe(200);
    expect((await json(res)).providerId).toBe(s.ben);
    expect(await claims(s.businessId, s.ana)).toEqual([]);
    expect(await claims(s.businessId, s.ben)).toEqual([Date.parse(start)]);
    expect((await postBooking(s.apiKey, bookingBody(s.colour, start, { providerId: s.ana }))).status).toBe(201);
  });

  it("a move onto a provider under a storm of creates for that provider and time: never double-booked", async () => {
    const s = await salon();
    const target = at(3, "15:00");
    const booking = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: s.ana }));
    const responses = await Promise.all([
      move(s.apiKey, booking.id, target, { providerId: s.ben }),
      ...Array.from({ length: 12 }, (_, i) =>
        postBooking(s.apiKey, bookingBody(i % 2 ? s.cut : s.colour, target, { providerId: s.ben })),
      ),
    ]);
    const won = responses.filter((r) => r.status === 200 || r.status === 201);
    expect(won).toHaveLength(1);
    expect(await claims(s.businessId, s.ben)).toEqual([Date.parse(target)]);
  });

  it("a provider calendar reset mid-move: 503 and the booking holds exactly its old time", async () => {
    const s = await salon();
    const start = at(3, "10:00");
    const target = at(3, "12:00");
    const booking = await book(s.apiKey, bookingBody(s.cut, start, { providerId: s.ana }));
    const stub = providerCalendarOf(env, s.businessId, s.ana);
    const setFault = (fault: "after" | undefined) =>
      runInDurableObject(stub, (instance: ProviderCalendar) => {
        (instance as FaultyProviderCalendar).faults.claim = fault;
      });
    await setFault("after");
    await problem(await move(s.apiKey, booking.id, target), 503, "unavailable");
    await setFault(undefined);
    expect(await claims(s.businessId, s.ana)).toEqual([Date.parse(start)]);
    const now = await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }));
    expect(now.startTime).toBe(booking.startTime);
    // A retry goes through.
    expect((await move(s.apiKey, booking.id, target)).status).toBe(200);
    expect(await claims(s.businessId, s.ana)).toEqual([Date.parse(target)]);
  });
});

describe("errors and security", () => {
  it("a wrong duration is a 422; unknown fields are refused", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const booking = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    const start = at(3, "12:00");
    const wrong = await api("POST", `/bookings/${booking.id}/reschedule`, {
      key: apiKey,
      body: { startTime: start, endTime: plus(start, 45) },
    });
    await validationError(wrong, "endTime");
    await validationError(await move(apiKey, booking.id, start, { serviceId: "svc_x" }), "serviceId");
  });

  it("another business's booking is a 404 and does not move", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    const service = await createService(owner.apiKey);
    const booking = await book(owner.apiKey, bookingBody(service.id, at(3, "10:00")));
    await problem(await move(other.apiKey, booking.id, at(3, "12:00")), 404, "not_found");
    const now = await json(await api("GET", `/bookings/${booking.id}`, { key: owner.apiKey }));
    expect(now.startTime).toBe(booking.startTime);
  });
});
