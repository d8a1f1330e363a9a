/**
 * Offers under concurrency and faults: every freed seat goes to exactly one entry, in queue
 * order; an offer lapses and passes on by the alarm alone; a reset between placing an offer's
 * hold and recording it neither loses the offer nor makes two (docs/consistency.md, "Waitlist").
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { webhookEvents } from "../../src/db/schema";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, bookingBody, calendarStub, plus, slotAt, statusCounts } from "../support/bookings";
import { createResource, newProvider } from "../support/fixtures";
import { fullSlot, join, joinBody } from "../support/waitlist";

const entries = async (key: string, serviceId: string) =>
  (await json(await api("GET", `/waitlist?serviceId=${serviceId}&limit=100`, { key }))).data as {
    id: string;
    status: string;
    holdId: string | null;
  }[];

describe("storms", () => {
  it("30 concurrent requests on one waitlisted slot (10 cancels, 20 reads): the 10 freed seats go to the first 10 entries", async () => {
    const s = await fullSlot(10);
    const queued = [];
    for (let i = 0; i < 15; i++) queued.push(await join(s.apiKey, joinBody(s)));
    const answers = await Promise.all([
      ...s.bookings.map((b) => api("POST", `/bookings/${b.id}/cancel`, { key: s.apiKey })),
      ...Array.from({ length: 20 }, () => api("GET", `/waitlist?serviceId=${s.serviceId}`, { key: s.apiKey })),
    ]);
    expect(statusCounts(answers)).toEqual({ 200: 30 });
    const after = await entries(s.apiKey, s.serviceId);
    expect(after.map((e) => e.status)).toEqual([...Array(10).fill("OFFERED"), ...Array(5).fill("WAITING")]);
    expect(after.map((e) => e.id)).toEqual(queued.map((e) => e.id));
    expect(new Set(after.flatMap((e) => (e.holdId ? [e.holdId] : []))).size).toBe(10);
    expect(await slotAt(s.apiKey, s.serviceId, s.start)).toMatchObject({ booked: 0, held: 10, remaining: 0 });
    // Each offer is one waitlist.offered event.
    const offered = (await db().select().from(webhookEvents)).filter((e) => e.type === "waitlist.offered");
    expect(offered.filter((e) => e.businessId === s.businessId)).toHaveLength(10);
    expect(
      (await reconcile(env, { businessId: s.businessId })).differences.filter((d) => d.kind !== "pending_in_outbox"),
    ).toEqual([]);
  });
});

describe("storms of leaving", () => {
  it("10 cancels and 10 entries leaving, all at once: every seat is either offered or free, and no left entry keeps one", async () => {
    const s = await fullSlot(10);
    const queued = [];
    for (let i = 0; i < 10; i++) queued.push(await join(s.apiKey, joinBody(s)));
    const answers = await Promise.all([
      ...s.bookings.map((b) => api("POST", `/bookings/${b.id}/cancel`, { key: s.apiKey })),
      ...queued.map((e) => api("DELETE", `/waitlist/${e.id}`, { key: s.apiKey })),
    ]);
    expect(statusCounts(answers)).toEqual({ 200: 10, 204: 10 });
    const after = await entries(s.apiKey, s.serviceId);
    expect(after.map((e) => e.status)).toEqual(Array(10).fill("CANCELLED"));
    // An entry offered before it left had its hold released; none was offered after it left.
    for (const entry of after.filter((e) => e.holdId)) {
      expect((await json(await api("GET", `/holds/${entry.holdId}`, { key: s.apiKey }))).status).toBe("RELEASED");
    }
    expect(await slotAt(s.apiKey, s.serviceId, s.start)).toMatchObject({ booked: 0, held: 0, remaining: 10 });
    expect(
      (await reconcile(env, { businessId: s.businessId })).differences.filter((d) => d.kind !== "pending_in_outbox"),
    ).toEqual([]);
  });
});

describe("a person who leaves the service", () => {
  it("is not replaced by someone else for an entry waiting for them: the entry waits on (found by the model-based test)", async () => {
    const account = await createAccount("Salon");
    const stylist = await newProvider(account.apiKey, "Stylist");
    const service = await createService(account.apiKey, { name: "Cut", providerIds: [stylist] });
    const start = at(2, "10:00");
    const booked = await json(
      await api("POST", "/bookings", {
        key: account.apiKey,
        body: bookingBody(service.id, start, { providerId: stylist }),
      }),
    );
    const waiting = await join(account.apiKey, joinBody({ serviceId: service.id, start }, { providerId: stylist }));
    expect(
      (await api("PATCH", `/services/${service.id}`, { key: account.apiKey, body: { providerIds: [] } })).status,
    ).toBe(200);
    expect((await api("POST", `/bookings/${booked.id}/cancel`, { key: account.apiKey })).status).toBe(200);
    expect((await json(await api("GET", `/waitlist/${waiting.id}`, { key: account.apiKey }))).status).toBe("WAITING");
  });
});

describe("a cancelled visit", () => {
  it("offers a seat its later segment's room held back, once the whole visit is cancelled (found by the model-based test)", async () => {
    const account = await createAccount("Spa");
    const room = (await createResource(account.apiKey, { name: "Room" })).id as string;
    const wrap = await createService(account.apiKey, { name: "Wrap", resourceIds: [room], bufferAfterMinutes: 15 });
    const soak = await createService(account.apiKey, { name: "Soak", resourceIds: [room] });
    const start = at(2, "10:00");
    const body = {
      customerName: "Ada",
      customerEmail: "ada@example.com",
      startTime: start,
      segments: [{ serviceId: wrap.id }, { serviceId: soak.id }],
    };
    const visit = await json(await api("POST", "/appointments", { key: account.apiKey, body }));
    const waiting = await join(account.apiKey, joinBody({ serviceId: wrap.id, start }));
    expect((await api("POST", `/appointments/${visit.id}/cancel`, { key: account.apiKey })).status).toBe(200);
    expect((await json(await api("GET", `/waitlist/${waiting.id}`, { key: account.apiKey }))).status).toBe("OFFERED");
  });
});

describe("an inactive service", () => {
  it("offers nothing while inactive, and what is free once it is active again (found by the model-based test)", async () => {
    const s = await fullSlot();
    const waiting = await join(s.apiKey, joinBody(s));
    const patch = (active: boolean) => api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { active } });
    expect((await patch(false)).status).toBe(200);
    expect((await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    expect((await json(await api("GET", `/waitlist/${waiting.id}`, { key: s.apiKey }))).status).toBe("WAITING");
    expect((await patch(true)).status).toBe(200);
    expect((await json(await api("GET", `/waitlist/${waiting.id}`, { key: s.apiKey }))).status).toBe("OFFERED");
  });
});

describe("a change of the service's length", () => {
  it("carries WAITING entries to the new length at the same start; the first to join is offered first (found by the model-based test)", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    expect(
      (await api("PATCH", `/services/${s.serviceId}`, { key: s.apiKey, body: { durationMinutes: 45 } })).status,
    ).toBe(200);
    const carried = await json(await api("GET", `/waitlist/${first.id}`, { key: s.apiKey }));
    const instants = (...times: string[]) => times.map((t) => Date.parse(t));
    expect(instants(carried.startTime, carried.endTime)).toEqual(instants(s.start, plus(s.start, 45)));
    expect(carried.status).toBe("WAITING");
    // The booking keeps its 30 minutes, so the slot at 10:00 is still full: a later customer joins at the new length.
    const second = await join(s.apiKey, joinBody(s, { endTime: plus(s.start, 45) }));
    expect(second.position).toBe(2);
    expect((await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    const [a, b] = await Promise.all(
      [first, second].map(async (e) => json(await api("GET", `/waitlist/${e.id}`, { key: s.apiKey }))),
    );
    expect([a.status, b.status]).toEqual(["OFFERED", "WAITING"]);
    const hold = await json(await api("GET", `/holds/${a.holdId}`, { key: s.apiKey }));
    expect(instants(hold.startTime, hold.endTime)).toEqual(instants(s.start, plus(s.start, 45)));
  });
});

describe("faults", () => {
  it("the calendar reset after placing an offer's hold, before recording it: the next run records that offer, and only it", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    const second = await join(s.apiKey, joinBody(s));
    const stub = calendarStub(s.businessId, s.serviceId);
    // What a reset leaves: the entry marked with its hold, the hold placed, the offer not recorded.
    await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey });
    const offered = await json(await api("GET", `/waitlist/${first.id}`, { key: s.apiKey }));
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE waitlist SET status = 'WAITING' WHERE id = ?", first.id);
    });
    await runDurableObjectAlarm(stub);
    const again = await json(await api("GET", `/waitlist/${first.id}`, { key: s.apiKey }));
    expect(again).toMatchObject({ status: "OFFERED", holdId: offered.holdId });
    expect((await json(await api("GET", `/waitlist/${second.id}`, { key: s.apiKey }))).status).toBe("WAITING");
    expect(await slotAt(s.apiKey, s.serviceId, s.start)).toMatchObject({ held: 1, remaining: 0 });
  });

  it("the calendar reset before recording an offer, and the slot began before the next run: no offer; the hold lapses on time", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    const stub = calendarStub(s.businessId, s.serviceId);
    try {
      // The seat frees five minutes before the slot: the offer's hold would last into it.
      vi.setSystemTime(Date.parse(s.start) - 5 * 60_000);
      await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey });
      const offered = await json(await api("GET", `/waitlist/${first.id}`, { key: s.apiKey }));
      expect(offered.status).toBe("OFFERED");
      await runInDurableObject(stub, (_i, state) => {
        state.storage.sql.exec("UPDATE waitlist SET status = 'WAITING' WHERE id = ?", first.id);
      });
      vi.setSystemTime(Date.parse(s.start) + 60_000);
      await runDurableObjectAlarm(stub);
      expect(await json(await api("GET", `/waitlist/${first.id}`, { key: s.apiKey }))).toMatchObject({
        status: "EXPIRED",
        holdId: null,
      });
      vi.setSystemTime(Date.parse(offered.updatedAt) + 15 * 60_000);
      await runDurableObjectAlarm(stub);
      expect((await json(await api("GET", `/holds/${offered.holdId}`, { key: s.apiKey }))).status).toBe("EXPIRED");
      expect((await json(await api("GET", `/waitlist/${first.id}`, { key: s.apiKey }))).status).toBe("EXPIRED");
    } finally {
      vi.useRealTimers();
    }
  });
});
