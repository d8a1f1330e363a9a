/**
 * The audit of calendar changes rides the write-behind that carries the booking row to D1: a
 * booking and its record reach D1 together, after a reset too, and a replayed batch writes one.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { PersistOutcome } from "../../src/calendar/d1/outbox";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { auditEvents } from "../../src/db/schema";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, bookingBody, calendarStub, d1Bookings, postBooking } from "../support/bookings";
import { eventually } from "../support/eventually";
import { injectFaults, resetOnceOutboxHolds } from "../support/faults";
import { bookWithLink, clinic, minutesFromNow, viaLink } from "../support/manage-links";
import { bookSeries, seriesBody, clinic as seriesClinic } from "../support/series";
import { bookVisit, spa, visitBody } from "../support/visits";
import { fullSlot, join, joinBody } from "../support/waitlist";

type Entry = { action: string; actor: { type: string; id: string }; fields: string[] };

/** A business, its first key (which may do everything) and that key's id, and a service. */
async function setup() {
  const { apiKey: key, businessId } = await createAccount();
  const service = await createService(key, { capacity: 100 });
  const keyId = (await json(await api("GET", "/api-keys", { key }))).data[0].id as string;
  return { keyId, key, businessId, serviceId: service.id as string, stub: calendarStub(businessId, service.id) };
}

const recordsOf = async (key: string, resourceId: string): Promise<Entry[]> =>
  (await json(await api("GET", `/audit-events?resourceId=${resourceId}`, { key }))).data;

const storedRecords = (resourceId: string) =>
  db().select().from(auditEvents).where(eq(auditEvents.resourceId, resourceId));

describe("bookings", () => {
  it("created and cancelled with a key: both recorded with the key as actor, field names only", async () => {
    const s = await setup();
    const booking = await json(
      await postBooking(s.key, bookingBody(s.serviceId, at(3, "10:00"), { notes: "Allergic" })),
    );
    const cancel = await api("POST", `/bookings/${booking.id}/cancel`, { key: s.key, body: { reason: "Ill" } });
    expect(cancel.status).toBe(200);
    const records = await eventually(async () => {
      const found = await recordsOf(s.key, booking.id);
      return found.length === 2 ? found : undefined;
    }, "two records");
    expect(records).toMatchObject([
      {
        action: "booking.cancelled",
        actor: { type: "apiKey", id: s.keyId },
        fields: ["cancellationReason", "cancelledAt", "status"],
      },
      { action: "booking.created", actor: { type: "apiKey", id: s.keyId }, fields: [] },
    ]);
    const stored = JSON.stringify(await storedRecords(booking.id));
    for (const secret of ["Allergic", "Ill", booking.customerEmail, booking.customerName])
      expect(stored).not.toContain(secret);
  });

  it("cancelled through the manage link: the actor is the customer, named by the booking", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(3 * 24 * 60));
    expect((await viaLink("POST", `${path}/cancel`, { reason: "Cannot come" })).status).toBe(200);
    const records = await eventually(async () => {
      const found = await recordsOf(c.apiKey, booking.id);
      return found.length === 2 ? found : undefined;
    }, "two records");
    expect(records[0]).toMatchObject({ action: "booking.cancelled", actor: { type: "customer", id: booking.id } });
  });
});

describe("series", () => {
  it("booked and cancelled with a key: every occurrence's records name the key", async () => {
    const c = await seriesClinic();
    const keyId = (await json(await api("GET", "/api-keys", { key: c.apiKey }))).data[0].id as string;
    const series = await bookSeries(c.apiKey, seriesBody(c.open, at(2, "10:00"), "FREQ=DAILY;COUNT=2"));
    expect((await api("POST", `/series/${series.id}/cancel`, { key: c.apiKey })).status).toBe(200);
    for (const occurrence of series.bookings as { id: string }[]) {
      const records = await eventually(async () => {
        const found = await recordsOf(c.apiKey, occurrence.id);
        return found.length === 2 ? found : undefined;
      }, "two records");
      expect(records.map((r) => [r.action, r.actor])).toEqual([
        ["booking.cancelled", { type: "apiKey", id: keyId }],
        ["booking.created", { type: "apiKey", id: keyId }],
      ]);
    }
  });
});

describe("appointments", () => {
  it("booked with a key: every segment's record names the key, the one booked in another service's calendar too", async () => {
    const s = await spa();
    const keyId = (await json(await api("GET", "/api-keys", { key: s.apiKey }))).data[0].id as string;
    const visit = await bookVisit(
      s.apiKey,
      visitBody(at(3, "10:00"), [{ serviceId: s.cut }, { serviceId: s.massage }]),
    );
    const segments = visit.bookings as { id: string; serviceId: string }[];
    expect(segments.map((b) => b.serviceId)).toEqual([s.cut, s.massage]);
    for (const segment of segments) {
      const [created] = await eventually(async () => {
        const found = await recordsOf(s.apiKey, segment.id);
        return found.length === 1 ? found : undefined;
      }, `the record of ${segment.serviceId}'s segment`);
      expect(created).toMatchObject({ action: "booking.created", actor: { type: "apiKey", id: keyId } });
    }
  });
});

describe("waitlist", () => {
  it("a seat offered to the waitlist is the system's change; the cancel that freed it is the key's", async () => {
    const s = await fullSlot(1);
    const entry = await join(s.apiKey, joinBody(s));
    const freed = s.bookings[0] as { id: string };
    expect((await api("POST", `/bookings/${freed.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    const [offer, joined] = await eventually(async () => {
      const found = await recordsOf(s.apiKey, entry.id);
      return found.length === 2 ? found : undefined;
    }, "the offer's record after the join's");
    expect(offer).toMatchObject({ action: "waitlist.offered", actor: { type: "system", id: "system" } });
    expect(joined).toMatchObject({ action: "waitlist.joined", actor: { type: "apiKey" } });
    const [cancelled] = await recordsOf(s.apiKey, freed.id);
    expect(cancelled).toMatchObject({ action: "booking.cancelled", actor: { type: "apiKey" } });
  });
});

describe("the same durability as the booking", () => {
  it("a reset between the commit and its D1 write: neither is in D1, then the alarm lands both", async () => {
    const s = await setup();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await injectFaults(s.stub, {
      writeToD1: async (records, events, real): Promise<PersistOutcome> => {
        await new Promise((r) => setTimeout(r, 300));
        return real(records, events).catch((error: unknown) => ({ ok: false, error: String(error) }));
      },
    });
    const [res] = await Promise.all([
      postBooking(s.key, bookingBody(s.serviceId, at(3, "11:00"))),
      resetOnceOutboxHolds(s.stub),
    ]);
    if (res.status === 201) return expect.fail("the reset landed after the call completed; no fault injected");
    expect(await d1Bookings(s.businessId)).toEqual([]);
    const listed = await json(await api("GET", `/audit-events?actorId=${s.keyId}`, { key: s.key }));
    expect(listed.data.map((r: Entry) => r.action)).toEqual(["service.created"]);

    const stub = calendarStub(s.businessId, s.serviceId);
    await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = 0");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [landed] = await d1Bookings(s.businessId);
    expect(landed).toBeDefined();
    expect(await recordsOf(s.key, landed?.id as string)).toMatchObject([
      { action: "booking.created", actor: { type: "apiKey", id: s.keyId } },
    ]);
  });

  it("a write-behind batch applied twice writes each record once", async () => {
    const s = await setup();
    await injectFaults(s.stub, {
      writeToD1: async (records, events, real): Promise<PersistOutcome> => {
        await real(records, events);
        return real(records, events);
      },
    });
    const booking = await json(await postBooking(s.key, bookingBody(s.serviceId, at(3, "12:00"))));
    await eventually(async () => ((await storedRecords(booking.id)).length > 0 ? true : undefined), "a record");
    expect(await storedRecords(booking.id)).toHaveLength(1);
  });
});
