/**
 * "A booking that got a 2xx is never lost": the calendar's outbox always has an alarm, a failed
 * group commit is not handed to later callers, one Idempotency-Key retention, and a cancel whose
 * answer was lost is answered again with the same key.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { PersistOutcome } from "../../src/calendar/d1/outbox";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { idempotencyKeys, webhookEvents } from "../../src/db/schema";
import { IDEMPOTENCY_RETENTION_MS } from "../../src/lib/idempotency";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, bookingBody, calendarStub, d1Bookings, postBooking } from "../support/bookings";
import { injectFaults, resetOnceOutboxHolds } from "../support/faults";

async function setup() {
  const account = await createAccount();
  const service = await createService(account.apiKey, { capacity: 100 });
  return { ...account, serviceId: service.id as string, stub: calendarStub(account.businessId, service.id) };
}

const differencesOf = async (businessId: string) =>
  (await reconcile(env)).differences.filter((d) => d.businessId === businessId);

describe("outbox alarm", () => {
  it("a calendar reset between the commit and its D1 write: the alarm lands the booking with no further traffic", async () => {
    const s = await setup();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // A slow D1 write keeps the committed booking in the outbox while the request waits on it.
    await injectFaults(s.stub, {
      writeToD1: async (records, events, real): Promise<PersistOutcome> => {
        await new Promise((r) => setTimeout(r, 300));
        // The object was reset meanwhile: its write fails as in production.
        return real(records, events).catch((error: unknown) => ({ ok: false, error: String(error) }));
      },
    });
    const [res] = await Promise.all([
      postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "10:00"))),
      resetOnceOutboxHolds(s.stub),
    ]);
    if (res.status === 201) return expect.fail("the reset landed after the call completed; no fault injected");
    expect(await d1Bookings(s.businessId)).toEqual([]);

    // The committed booking is in the outbox with an alarm set; reconciliation sees it pending.
    // A stub that saw the reset stays broken: from here on, a new one.
    s.stub = calendarStub(s.businessId, s.serviceId);
    const left = await runInDurableObject(s.stub, async (_instance: ServiceCalendar, state) => ({
      ids: state.storage.sql.exec<{ booking_id: string }>("SELECT booking_id FROM outbox").toArray(),
      alarm: await state.storage.getAlarm(),
    }));
    expect(left.ids).toHaveLength(1);
    expect(left.alarm).not.toBeNull();
    expect((await differencesOf(s.businessId)).map((d) => d.kind)).toEqual(["pending_in_outbox"]);

    // Waiting longer than the bound (60 s) is reported as inconsistent.
    await runInDurableObject(s.stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET queued_ms = queued_ms - 61000");
    });
    const stuck = await reconcile(env);
    expect(stuck.differences.filter((d) => d.businessId === s.businessId).map((d) => d.kind)).toEqual([
      "stuck_in_outbox",
    ]);
    expect(stuck.consistent).toBe(false);

    // The alarm alone writes it to D1.
    await runInDurableObject(s.stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = 0");
    });
    expect(await runDurableObjectAlarm(s.stub)).toBe(true);
    expect(await d1Bookings(s.businessId)).toHaveLength(1);
    expect(await differencesOf(s.businessId)).toEqual([]);
  });

  it("every create arms the alarm in the step that queues it for D1", async () => {
    const s = await setup();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await injectFaults(s.stub, { writeToD1: async (): Promise<PersistOutcome> => ({ ok: false, error: "D1 down" }) });
    const before = Date.now();
    expect((await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "11:00")))).status).toBe(201);
    const alarm = await runInDurableObject(s.stub, (_i: ServiceCalendar, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    // Within the grace period (or the retry backoff, whichever is earlier).
    expect(alarm as number).toBeLessThanOrEqual(before + 11_000);
  });
});

describe("group commit", () => {
  it("after a failed flush, later creates still wait for their own D1 write (GET right after 201 finds them)", async () => {
    const s = await setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let calls = 0;
    await injectFaults(s.stub, {
      writeToD1: async (records, events, real) => {
        calls++;
        await new Promise((r) => setTimeout(r, 100));
        // The first write's answer breaks the calendar's step after it: the flush itself fails.
        if (calls === 1) return { ok: true, customerIds: undefined, eventsWithDeliveries: new Set() } as never;
        return real(records, events);
      },
    });
    const createThenGet = async (hour: number, minute: string) => {
      const res = await postBooking(s.apiKey, bookingBody(s.serviceId, at(4, `${hour}:${minute}`)));
      expect(res.status).toBe(201);
      const { id } = await json(res);
      return (await api("GET", `/bookings/${id}`, { key: s.apiKey })).status;
    };
    // Three at once: the first write fails while the other two wait to share the next one.
    await Promise.all([createThenGet(10, "00"), createThenGet(10, "30"), createThenGet(11, "00")]);
    // Later bursts: every 201 comes after D1 has the booking.
    for (const hour of [12, 13]) {
      const seen = await Promise.all(["00", "30"].flatMap((m) => [createThenGet(hour, m)]));
      expect(seen).toEqual([200, 200]);
    }
    const burst = await Promise.all([14, 15, 16].map((h) => createThenGet(h, "00")));
    expect(burst).toEqual([200, 200, 200]);
  });
});

describe("idempotency retention", () => {
  it("is one value for D1 and the calendar: a key older than it books anew in both", async () => {
    const s = await setup();
    const first = await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "12:00")), "old-key");
    expect(first.status).toBe(201);
    // The key's age passes the retention in both places.
    const aged = new Date(Date.now() - IDEMPOTENCY_RETENTION_MS - 1000).toISOString();
    await db().update(idempotencyKeys).set({ expiresAt: aged }).where(eq(idempotencyKeys.key, "old-key"));
    await runInDurableObject(s.stub, (_i: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE idempotency SET created_ms = ?", Date.now() - IDEMPOTENCY_RETENTION_MS - 1000);
    });
    const again = await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "12:30")), "old-key");
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await json(again)).id).not.toBe((await json(first)).id);
  });
});

describe("cancel idempotency", () => {
  it("a committed cancel whose answer was lost is answered again (200, same booking) on retry with the key", async () => {
    const s = await setup();
    const created = await json(await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "13:00"))));
    const cancel = () =>
      api("POST", `/bookings/${created.id}/cancel`, { key: s.apiKey, body: {}, headers: { "Idempotency-Key": "c-1" } });
    const first = await cancel();
    expect(first.status).toBe(200);
    const answer = await json(first);
    // The answer was never stored (the claim is still open, its lease run out): as after a crash
    // between the calendar's commit and storing the response.
    await db()
      .update(idempotencyKeys)
      .set({ responseStatus: null, responseBody: null, lockedUntil: new Date(Date.now() - 1000).toISOString() })
      .where(eq(idempotencyKeys.key, "c-1"));
    const retry = await cancel();
    expect(retry.status).toBe(200);
    expect(await json(retry)).toEqual(answer);
    expect((await d1Bookings(s.businessId))[0]).toMatchObject({ status: "CANCELLED", version: 2 });
    // Another request under the same key is still refused.
    const other = await api("POST", `/bookings/${created.id}/cancel`, {
      key: s.apiKey,
      body: { reason: "Different." },
      headers: { "Idempotency-Key": "c-1" },
    });
    expect(other.status).toBe(422);
  });
});

describe("webhook events", () => {
  const eventsOf = async (bookingId: string) =>
    (await db().select().from(webhookEvents))
      .map((e) => ({ type: e.type, data: JSON.parse(e.payload).data as { id: string; version: number } }))
      .filter((e) => e.data.id === bookingId);

  it("carry the booking version, and reach D1 only with (or after) the booking version they describe", async () => {
    const s = await setup();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await injectFaults(s.stub, { writeToD1: async (): Promise<PersistOutcome> => ({ ok: false, error: "D1 down" }) });
    const created = await json(await postBooking(s.apiKey, bookingBody(s.serviceId, at(3, "14:00"))));
    await injectFaults(s.stub, { writeToD1: undefined });
    // The booking's retry is still backing off while its event is due.
    await runInDurableObject(s.stub, (_i: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = ?", Date.now() + 3_600_000);
      state.storage.sql.exec("UPDATE events SET next_attempt_ms = 0");
    });
    await runDurableObjectAlarm(s.stub);
    expect(await d1Bookings(s.businessId)).toEqual([]);
    expect(await eventsOf(created.id)).toEqual([]);

    // Once the booking is due, both land in one write.
    await runInDurableObject(s.stub, (_i: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = 0");
    });
    await runDurableObjectAlarm(s.stub);
    expect(await d1Bookings(s.businessId)).toHaveLength(1);
    expect(await eventsOf(created.id)).toEqual([
      { type: "booking.created", data: expect.objectContaining({ id: created.id, version: 1 }) },
    ]);

    const cancelled = await api("POST", `/bookings/${created.id}/cancel`, { key: s.apiKey, body: {} });
    expect(cancelled.status).toBe(200);
    expect((await eventsOf(created.id)).map((e) => [e.type, e.data.version])).toEqual([
      ["booking.created", 1],
      ["booking.cancelled", 2],
    ]);
  });
});
