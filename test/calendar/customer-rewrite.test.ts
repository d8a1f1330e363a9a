/**
 * Customer edits and erasure inside a real ServiceCalendar: the rewrite runs on the object's own
 * storage in one transaction; D1 converges through the outbox and the alarm, also when an older
 * version of a booking was still queued and when D1 never saw the booking before the erasure.
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AlarmClock } from "../../src/calendar/alarm-clock";
import type { PersistOutcome } from "../../src/calendar/d1/outbox";
import { Outbox } from "../../src/calendar/d1/outbox";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import {
  type CustomerRewrite,
  erasedDetails,
  rewriteCustomer,
} from "../../src/calendar/service/steps/customer-rewrite";
import { bookings, customers, webhookEvents } from "../../src/db/schema";
import { api, createAccount, createCustomer, createService, db, json } from "../support/api";
import { at, book, bookingBody, calendarStub, d1Bookings, postBooking } from "../support/bookings";
import { injectFaults } from "../support/faults";

type Stub = ReturnType<typeof calendarStub>;

const secret = { name: "Quentin Marlowe-Sayer", email: "quentin.ms@example.com", phone: "+1 555 0142" };
const secretNotes = "Gate code 2718";

const leaks = (value: unknown) => {
  const text = JSON.stringify(value).toLowerCase();
  return [...Object.values(secret), secretNotes].filter((s) => text.includes(s.toLowerCase()));
};

async function setup() {
  const account = await createAccount();
  const service = await createService(account.apiKey);
  return { ...account, serviceId: service.id as string, stub: calendarStub(account.businessId, service.id) };
}

async function outage(stub: Stub) {
  await injectFaults(stub, {
    writeToD1: async (): Promise<PersistOutcome> => ({ ok: false, error: "injected D1 outage" }),
  });
}

async function d1IsBack(stub: Stub) {
  await injectFaults(stub, { writeToD1: undefined });
  await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
    state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = 0");
    state.storage.sql.exec("UPDATE events SET next_attempt_ms = 0");
  });
}

/** Runs the rewrite inside the object, in one storage transaction, as its RPC method does. */
function rewriteInside(stub: Stub, command: CustomerRewrite) {
  return runInDurableObject(stub, (_instance: ServiceCalendar, state) =>
    state.storage.transactionSync(() =>
      rewriteCustomer(
        state.storage.sql,
        new Outbox(state.storage.sql, new AlarmClock(state.storage)),
        command,
        Date.now(),
      ),
    ),
  );
}

/** The calendar's rows: bookings (records parsed), outbox and events. */
function calendarRows(stub: Stub) {
  return runInDurableObject(stub, (_instance: ServiceCalendar, state) => ({
    bookings: state.storage.sql
      .exec<{ id: string; version: number; record: string }>("SELECT id, version, record FROM bookings ORDER BY id")
      .toArray()
      .map((r) => ({ ...r, record: JSON.parse(r.record) })),
    outbox: state.storage.sql.exec("SELECT booking_id, version FROM outbox").toArray(),
    events: state.storage.sql.exec<{ id: string; payload: string }>("SELECT id, payload FROM events").toArray(),
  }));
}

afterEach(() => vi.useRealTimers());

describe("rewriteCustomer in the calendar", () => {
  it("erasure: a new version over the one still queued, queued event payloads scrubbed, D1 converges by the alarm", async () => {
    const s = await setup();
    const booking = await book(
      s.apiKey,
      bookingBody(s.serviceId, at(2, "10:00"), {
        customerName: secret.name,
        customerEmail: secret.email,
        customerPhone: secret.phone,
      }),
    );
    // D1 goes away; a notes edit (version 2) and its webhook event wait in the calendar.
    await outage(s.stub);
    const edit = await api("PATCH", `/bookings/${booking.id}`, { key: s.apiKey, body: { notes: secretNotes } });
    expect(edit.status).toBe(200);
    const queued = await calendarRows(s.stub);
    expect(queued.outbox).toEqual([{ booking_id: booking.id, version: 2 }]);
    expect(queued.events).toHaveLength(1);
    expect(leaks(queued.events)).toEqual([...Object.values(secret), secretNotes]);

    const details = erasedDetails(booking.customerId);
    const result = await rewriteInside(s.stub, {
      customerId: booking.customerId,
      email: secret.email,
      before: new Date().toISOString(),
      details,
      erase: true,
    });
    expect(result).toEqual({ bookingIds: [booking.id] });
    const erased = await calendarRows(s.stub);
    expect(erased.outbox).toEqual([{ booking_id: booking.id, version: 3 }]);
    expect(erased.bookings).toEqual([
      {
        id: booking.id,
        version: 3,
        record: expect.objectContaining({
          ...details,
          notes: null,
          version: 3,
          status: "CONFIRMED",
          startTime: booking.startTime,
          customerId: booking.customerId,
        }),
      },
    ]);
    expect(erased.events).toHaveLength(1);
    expect(leaks(erased)).toEqual([]);
    expect(JSON.parse((erased.events[0] as { payload: string }).payload).data).toMatchObject({
      id: booking.id,
      customerEmail: details.customerEmail,
    });

    // As DELETE /customers does first: the customer row in D1 carries the placeholders.
    await db()
      .update(customers)
      .set({ name: details.customerName, email: details.customerEmail, emailNormalized: details.customerEmail })
      .where(eq(customers.id, booking.customerId));
    await d1IsBack(s.stub);
    expect(await runDurableObjectAlarm(s.stub)).toBe(true);

    const [row] = await d1Bookings(s.businessId);
    expect(row).toMatchObject({ id: booking.id, version: 3, notes: null, status: "CONFIRMED" });
    const events = await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, s.businessId));
    expect(events.map((e) => JSON.parse(e.payload).type).sort()).toEqual(["booking.created", "booking.updated"]);
    const updated = events.find((e) => JSON.parse(e.payload).type === "booking.updated");
    expect(leaks(updated)).toEqual([]);
    expect((await calendarRows(s.stub)).outbox).toEqual([]);
  });

  it("matches by e-mail only bookings made before the change, and adopts them for the customer", async () => {
    const s = await setup();
    await outage(s.stub);
    // D1 never learns these, so each booking carries a customer id of its own.
    const early = await json(
      await postBooking(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { customerEmail: secret.email })),
    );
    // `before` a second after the early booking and a second before the late one, on a faked
    // clock: it is strict, and a fast machine makes both bookings within one millisecond.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: now + 2_000 });
    const late = await json(
      await postBooking(
        s.apiKey,
        bookingBody(s.serviceId, at(2, "11:00"), { customerEmail: "QUENTIN.MS@example.com" }),
      ),
    );
    vi.useRealTimers();
    const before = new Date(now + 1_000).toISOString();
    const result = await rewriteInside(s.stub, {
      customerId: "cus_adopted",
      email: secret.email,
      before,
      details: { customerName: "Q", customerEmail: "q@example.com", customerPhone: null },
      erase: false,
    });
    expect(result).toEqual({ bookingIds: [early.id] });
    const rows = await calendarRows(s.stub);
    const record = (id: string) => rows.bookings.find((b) => b.id === id)?.record;
    expect(record(early.id)).toMatchObject({ customerId: "cus_adopted", customerEmail: "q@example.com", version: 2 });
    expect(record(late.id)).toMatchObject({
      customerId: late.customerId,
      customerEmail: "QUENTIN.MS@example.com",
      version: 1,
    });
  });

  it("an edit never overwrites an erased booking, and a repeated erasure changes nothing", async () => {
    const s = await setup();
    const booking = await book(s.apiKey, bookingBody(s.serviceId, at(2, "10:00"), { customerEmail: secret.email }));
    const erase: CustomerRewrite = {
      customerId: booking.customerId,
      email: secret.email,
      before: new Date().toISOString(),
      details: erasedDetails(booking.customerId),
      erase: true,
    };
    expect(await rewriteInside(s.stub, erase)).toEqual({ bookingIds: [booking.id] });
    expect(await rewriteInside(s.stub, erase)).toEqual({ bookingIds: [] });
    const edit = {
      ...erase,
      details: { customerName: secret.name, customerEmail: secret.email, customerPhone: null },
      erase: false,
    };
    expect(await rewriteInside(s.stub, edit)).toEqual({ bookingIds: [] });
    const rows = await calendarRows(s.stub);
    expect(rows.bookings[0]?.record).toMatchObject({ ...erasedDetails(booking.customerId), version: 2 });
  });
});

describe("DELETE /customers/{id} with a booking only its calendar knows", () => {
  it("the booking reaches D1 later already erased, on the erased customer", async () => {
    const s = await setup();
    const customer = await createCustomer(s.apiKey, { name: secret.name, email: secret.email, phone: secret.phone });
    await outage(s.stub);
    const res = await postBooking(
      s.apiKey,
      bookingBody(s.serviceId, at(2, "10:00"), {
        customerName: secret.name,
        customerEmail: secret.email,
        notes: secretNotes,
      }),
    );
    expect(res.status).toBe(201);
    const booking = await json(res);
    expect(booking.customerId).toBe(customer.id);
    expect(await d1Bookings(s.businessId)).toEqual([]);

    expect((await api("DELETE", `/customers/${customer.id}`, { key: s.apiKey })).status).toBe(204);
    await d1IsBack(s.stub);
    expect(await runDurableObjectAlarm(s.stub)).toBe(true);

    const [row] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row).toMatchObject({ customerId: customer.id, ...erasedDetails(customer.id), notes: null, version: 2 });
    const d1 = await Promise.all(
      ["customers", "bookings", "webhook_events"].map((t) =>
        env.DB_0.prepare(`SELECT * FROM ${t} WHERE business_id = ?`).bind(s.businessId).all(),
      ),
    );
    expect(leaks(d1)).toEqual([]);
    const search = await json(await api("GET", "/customers?search=erased", { key: s.apiKey }));
    expect(search.data).toEqual([]);
  });
});
