/**
 * Every D1 statement the app issues while serving a tour of the API (and reconciling) is run
 * through `EXPLAIN QUERY PLAN`: none may scan a tenant table in full. The statements are
 * captured at the D1 binding, so this covers what the routes really send, not a list kept by hand.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { reconcileClaimed } from "../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../src/calendar/d1/reconcile-services";
import { businessEnv } from "../../src/shards/shards";
import { createAccount, createCustomer, createService, json, origin, serviceBody } from "../support/api";
import { at, bookingBody } from "../support/bookings";

/** Tables that hold one business's rows: a full scan of one grows with every tenant. */
const businessTables = [
  "api_keys",
  "services",
  "providers",
  "service_providers",
  "resources",
  "service_resources",
  "booking_providers",
  "booking_resources",
  "customers",
  "bookings",
  "idempotency_keys",
  "webhook_endpoints",
  "webhook_events",
  "webhook_deliveries",
  "holds",
];

/** The D1 binding with every statement's SQL recorded as it is prepared. */
function recordingDb(sqls: Set<string>, binding: D1Database = env.DB): D1Database {
  return new Proxy(binding, {
    get(target, name) {
      if (name === "prepare") {
        return (sql: string) => {
          sqls.add(sql);
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The Worker's env with the directory and every shard recording their statements. */
const recordingEnv = (sqls: Set<string>) =>
  ({
    ...env,
    DB: recordingDb(sqls),
    DB_0: recordingDb(sqls, env.DB_0),
    DB_1: recordingDb(sqls, env.DB_1),
  }) as Env;

describe("query plans", () => {
  it("no statement the API sends scans a tenant table in full", async () => {
    const sqls = new Set<string>();
    const recording = recordingEnv(sqls);
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const customer = await createCustomer(apiKey);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.fetch(
        new Request(`${origin}/api/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        recording,
        ctx,
      );
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(500);
      return res;
    };
    const provider = await json(
      await call("POST", "/providers", {
        name: "Sam",
        timezone: "UTC",
        weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] },
      }),
    );
    const room = await json(await call("POST", "/resources", { name: "Room", timezone: "UTC" }));
    const roomy = await json(
      await call("POST", "/services", serviceBody({ resourceIds: [room.id], providerIds: [provider.id] })),
    );
    await call("POST", "/bookings", bookingBody(roomy.id, at(3, "10:00")));
    const booking = await json(await call("POST", "/bookings", bookingBody(service.id, at(3, "10:00"))));
    const from = at(1, "00:00");
    const to = at(9, "00:00");
    for (const path of [
      "/services",
      "/services?active=false",
      `/services/${service.id}`,
      `/services/${service.id}/availability?from=${from}&to=${to}`,
      "/customers",
      "/customers?search=ada",
      `/customers/${customer.id}`,
      "/bookings",
      "/bookings?status=CONFIRMED",
      `/bookings?serviceId=${service.id}`,
      `/bookings?customerId=${booking.customerId}`,
      `/bookings?from=${from}&to=${to}`,
      `/bookings/${booking.id}`,
      "/providers",
      `/providers/${provider.id}`,
      `/providers/${provider.id}/bookings`,
      `/bookings?providerId=${provider.id}`,
      `/bookings?resourceId=${room.id}`,
      "/resources",
      `/resources/${room.id}`,
      `/resources/${room.id}/bookings`,
      `/services/${roomy.id}/availability?from=${from}&to=${to}`,
      "/webhooks",
    ]) {
      await call("GET", path);
    }
    await call("PATCH", `/services/${service.id}`, { name: "Renamed" });
    await call("PATCH", `/resources/${room.id}`, { quantity: 1, name: "Room 1" });
    await call("PATCH", `/services/${roomy.id}`, { resourceIds: [room.id], providerMode: "all" });
    await call("PATCH", `/customers/${customer.id}`, { name: "Ada B." });
    await call("PATCH", `/bookings/${booking.id}`, { notes: "Window seat." });
    await call("POST", `/bookings/${booking.id}/reschedule`, { startTime: at(3, "11:00"), endTime: at(3, "11:30") });
    const hold = await json(
      await call("POST", "/holds", { serviceId: service.id, startTime: at(4, "10:00"), endTime: at(4, "10:30") }),
    );
    await call("GET", `/holds/${hold.id}`);
    await call("DELETE", `/holds/${hold.id}`);
    await call("POST", `/bookings/${booking.id}/cancel`, {});
    const webhook = await json(
      await call("POST", "/webhooks", { url: "https://hooks.example/q", events: ["booking.created"] }),
    );
    await call("GET", `/webhooks/${webhook.id}/deliveries`);
    await call("DELETE", `/customers/${customer.id}`);
    // The pass over shard 0, where `createAccount` puts the business.
    await reconcile(businessEnv(recordingEnv(sqls), 0));
    await reconcileClaimed(businessEnv(recordingEnv(sqls), 0));

    expect(sqls.size).toBeGreaterThan(20);
    const scans: string[] = [];
    for (const sql of sqls) {
      // The plan does not depend on the values: every placeholder gets NULL.
      // `?N` placeholders count up to the highest N; plain ones each count.
      const numbered = [...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1]));
      const placeholders = numbered.length > 0 ? Math.max(...numbered) : (sql.match(/\?/g)?.length ?? 0);
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...Array(placeholders).fill(null))
        .all<{ detail: string }>();
      // An insert's plan also lists the child tables SQLite would search for foreign keys;
      // those run only when a parent row is deleted, which the API never does.
      const inserted = /^insert into "(\w+)"/i.exec(sql)?.[1];
      for (const { detail } of plan.results) {
        const table = /^SCAN (\w+)/.exec(detail)?.[1];
        if (inserted && table !== inserted) continue;
        if (table && businessTables.includes(table)) scans.push(`${detail}\n  in: ${sql}`);
      }
    }
    expect(scans).toEqual([]);
  });
});
