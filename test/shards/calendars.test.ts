/**
 * The calendar objects of a tenant on shard 1 (src/shards/object-shard.ts): each learns the shard
 * from the calls that reach it and keeps it, so a write-behind its alarm makes after a reset, with
 * no call to tell it, still lands on shard 1; reconciliation walks both shards.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { api, json } from "../support/api";
import { at, bookingBody, calendarStub, postBooking } from "../support/bookings";
import { injectFaults } from "../support/faults";
import { businessOn } from "../support/shards";

const storedShard = (stub: DurableObjectStub) =>
  runInDurableObject(stub, (_instance, state) => state.storage.kv.get<number>("tenant-shard"));

const statusOn = (binding: D1Database, bookingId: string) =>
  binding.prepare("SELECT status, version FROM bookings WHERE id = ?").bind(bookingId).first();

describe("happy", () => {
  it("a service's and a person's calendar keep the shard the first call told them", async () => {
    const t = await businessOn(1, "Calendars on one");
    expect(await storedShard(calendarStub(t.businessId, t.serviceId) as DurableObjectStub)).toBe(1);
    expect(await storedShard(providerCalendarOf(env, t.businessId, t.providerId) as DurableObjectStub)).toBe(1);
  });

  it("a booking whose D1 write failed is written to its shard by the alarm after a reset", async () => {
    const t = await businessOn(1, "Write-behind on one");
    let stub = calendarStub(t.businessId, t.serviceId);
    await injectFaults(stub, { writeToD1: async () => ({ ok: false, error: "injected D1 outage" }) });
    const res = await postBooking(t.apiKey, bookingBody(t.serviceId, at(4, "11:00")));
    expect(res.status).toBe(201);
    const { id } = await json(res);
    expect(await statusOn(env.DB_1, id)).toBeNull();
    // A reset: the new instance has no fault, and nothing but its storage says where to write.
    await runInDurableObject(stub, (_instance: ServiceCalendar, state) => state.abort("reset by a test")).catch(
      () => undefined,
    );
    stub = calendarStub(t.businessId, t.serviceId);
    await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_ms = 0");
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await statusOn(env.DB_1, id)).toEqual({ status: "CONFIRMED", version: 1 });
    expect(await statusOn(env.DB_0, id)).toBeNull();
    expect(await statusOn(env.DB, id)).toBeNull();
  });

  it("a cancel is written behind to the tenant's shard", async () => {
    const t = await businessOn(1, "Cancel on one");
    const res = await api("POST", `/bookings/${t.bookingId}/cancel`, { key: t.apiKey, body: {} });
    expect(res.status).toBe(200);
    expect(await statusOn(env.DB_1, t.bookingId)).toEqual({ status: "CANCELLED", version: 2 });
    expect(await statusOn(env.DB_0, t.bookingId)).toBeNull();
  });
});

describe("reconciliation", () => {
  it("walks both shards: consistent, then a row gone from shard 1 is found", async () => {
    const [a, b] = await Promise.all([businessOn(0, "Reconciled zero"), businessOn(1, "Reconciled one")]);
    const report = await reconcile(env);
    const businesses = new Set(report.differences.map((d) => d.businessId));
    expect(businesses.has(a.businessId) || businesses.has(b.businessId)).toBe(false);
    await env.DB_1.prepare("DELETE FROM booking_providers WHERE booking_id = ?").bind(b.bookingId).run();
    await env.DB_1.prepare("DELETE FROM bookings WHERE id = ?").bind(b.bookingId).run();
    const after = (await reconcile(env)).differences.filter((d) => d.businessId === b.businessId);
    expect(after).toMatchObject([{ bookingId: b.bookingId, kind: "missing_in_d1" }]);
    const overHttp = await exports.default.fetch(
      new Request("http://api.test/internal/reconcile", { headers: { Authorization: "Bearer test-admin-token" } }),
    );
    const body = await json(overHttp);
    expect(body.consistent).toBe(false);
    expect(body.differences.filter((d: { businessId: string }) => d.businessId === b.businessId)).toHaveLength(1);
  });
});
