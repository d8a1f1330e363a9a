/**
 * The nightly prune: a calendar drops bookings that can overlap nothing nor count against a
 * limit (ended eight days ago or earlier) while D1 keeps them and reconciliation stays clean; webhook history goes after 30 days.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { bookings, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../../src/db/schema";
import { nightly } from "../../src/maintenance";
import { createAccount, createService, db } from "../support/api";
import { at, book, bookingBody, calendarStub } from "../support/bookings";

const DAY = 86_400_000;

/** Moves a booking's appointment to have ended `daysAgo` days ago, in its calendar and in D1. */
async function endedDaysAgo(stub: DurableObjectStub<ServiceCalendar>, id: string, daysAgo: number) {
  const end = Date.now() - daysAgo * DAY;
  const times = { startTime: new Date(end - 30 * 60_000).toISOString(), endTime: new Date(end).toISOString() };
  await runInDurableObject(stub, (_i: ServiceCalendar, state) => {
    const { record } = state.storage.sql.exec<{ record: string }>("SELECT record FROM bookings WHERE id = ?", id).one();
    state.storage.sql.exec(
      "UPDATE bookings SET blocked_start_ms = ?, blocked_end_ms = ?, record = ? WHERE id = ?",
      end - 30 * 60_000,
      end,
      JSON.stringify({ ...JSON.parse(record), ...times }),
      id,
    );
  });
  await db().update(bookings).set(times).where(eq(bookings.id, id));
}

const calendarIds = (stub: DurableObjectStub<ServiceCalendar>) =>
  runInDurableObject(stub, (_i: ServiceCalendar, state) =>
    state.storage.sql
      .exec<{ id: string }>("SELECT id FROM bookings ORDER BY id")
      .toArray()
      .map((r) => r.id),
  );

describe("nightly prune", () => {
  it("drops calendar rows of bookings that ended eight days ago or earlier; D1 keeps them; reconciliation is clean", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const stub = calendarStub(businessId, service.id);
    const old = await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    const recent = await book(apiKey, bookingBody(service.id, at(2, "11:00")));
    const ahead = await book(apiKey, bookingBody(service.id, at(2, "12:00")));
    await endedDaysAgo(stub, old.id, 9);
    await endedDaysAgo(stub, recent.id, 7);

    await nightly(env);

    expect(await calendarIds(stub)).toEqual([recent.id, ahead.id].sort());
    const inD1 = await db().select({ id: bookings.id }).from(bookings).where(eq(bookings.businessId, businessId));
    expect(inD1.map((b) => b.id).sort()).toEqual([old.id, recent.id, ahead.id].sort());
    const report = await reconcile(env);
    expect(report.differences.filter((d) => d.businessId === businessId)).toEqual([]);
  });

  it("drops webhook deliveries, attempts and events older than 30 days, and keeps newer ones", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { businessId } = await createAccount();
    const now = Date.now();
    const stamp = (days: number) => new Date(now - days * DAY).toISOString();
    await db()
      .insert(webhookEndpoints)
      .values({
        id: "whk_prune",
        businessId,
        url: "https://hooks.example/prune",
        events: ["booking.created"],
        secret: "whsec_x",
        status: "active",
        createdAt: stamp(40),
        updatedAt: stamp(40),
      });
    for (const [n, days] of [
      ["old", 31],
      ["new", 29],
    ] as const) {
      await db()
        .insert(webhookEvents)
        .values({
          id: `evt_${n}`,
          businessId,
          type: "booking.created",
          payload: "{}",
          createdAt: stamp(days),
        });
      await db()
        .insert(webhookDeliveries)
        .values({
          id: `dlv_${n}`,
          businessId,
          endpointId: "whk_prune",
          eventId: `evt_${n}`,
          eventType: "booking.created",
          status: "succeeded",
          attempts: 1,
          createdAt: stamp(days),
          updatedAt: stamp(days),
        });
      await db()
        .insert(webhookAttempts)
        .values({ deliveryId: `dlv_${n}`, attempt: 1, at: stamp(days), durationMs: 5 });
    }

    await nightly(env);

    const events = await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, businessId));
    expect(events.map((e) => e.id)).toEqual(["evt_new"]);
    const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.businessId, businessId));
    expect(deliveries.map((d) => d.id)).toEqual(["dlv_new"]);
    const attempts = await db().select().from(webhookAttempts);
    expect(attempts.map((a) => a.deliveryId).filter((id) => id.endsWith("_old") || id.endsWith("_new"))).toEqual([
      "dlv_new",
    ]);
  });
});
