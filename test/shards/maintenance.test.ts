/**
 * The passes over every shard (docs/operations.md, "Shards"): the nightly retention and the
 * recount of the lists' kept counts reach a business on shard 1 as they do one on shard 0; and
 * a storm of creates for one slot on two businesses, one per shard, books each slot once.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { nightly } from "../../src/maintenance";
import { json } from "../support/api";
import { at, bookingBody, postBooking } from "../support/bookings";
import { bindingOf, businessOn } from "../support/shards";

const count = async (shard: number, sql: string, ...params: unknown[]) =>
  (
    (await bindingOf(shard)
      .prepare(sql)
      .bind(...params)
      .first<{ n: number }>()) ?? { n: -1 }
  ).n;

describe("retention and kept counts", () => {
  it("the nightly pass drops expired idempotency keys on each shard", async () => {
    const [a, b] = await Promise.all([businessOn(0, "Nightly zero"), businessOn(1, "Nightly one")]);
    for (const t of [a, b]) {
      const res = await postBooking(t.apiKey, bookingBody(t.serviceId, at(7, "15:00")), `night-${t.businessId}`);
      expect(res.status).toBe(201);
      const keys = "SELECT count(*) AS n FROM idempotency_keys WHERE business_id = ?";
      expect(await count(t.shard, keys, t.businessId)).toBe(1);
      await bindingOf(t.shard)
        .prepare("UPDATE idempotency_keys SET expires_at = ? WHERE business_id = ?")
        .bind(new Date(Date.now() - 60_000).toISOString(), t.businessId)
        .run();
    }
    await nightly(env);
    for (const t of [a, b]) {
      expect(
        await count(t.shard, "SELECT count(*) AS n FROM idempotency_keys WHERE business_id = ?", t.businessId),
      ).toBe(0);
    }
  });

  it("a kept count that drifted on shard 1 is found by /internal/reconcile", async () => {
    const b = await businessOn(1, "Drifted one");
    await env.DB_1.prepare("UPDATE list_counts SET n = n + 5 WHERE business_id = ?").bind(b.businessId).run();
    const res = await exports.default.fetch(
      new Request("http://api.test/internal/reconcile", { headers: { Authorization: "Bearer test-admin-token" } }),
    );
    const body = await json(res);
    expect(body.consistent).toBe(false);
    expect(body.counts.drift.some((d: { businessId: string }) => d.businessId === b.businessId)).toBe(true);
  });
});

describe("storms", () => {
  it("20 creates at once for one slot, on a business of each shard: each slot booked once, on its shard", async () => {
    const [a, b] = await Promise.all([businessOn(0, "Storm zero"), businessOn(1, "Storm one")]);
    const slot = at(8, "10:00");
    const responses = await Promise.all(
      [a, b].flatMap((t) => Array.from({ length: 10 }, () => postBooking(t.apiKey, bookingBody(t.serviceId, slot)))),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.slice(0, 10).filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.slice(10).filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const made = await Promise.all(responses.filter((r) => r.status === 201).map((r) => json(r)));
    for (const [t, booking] of [
      [a, made[0]],
      [b, made[1]],
    ] as const) {
      expect(Date.parse(booking.startTime)).toBe(Date.parse(slot));
      const booked = "SELECT count(*) AS n FROM bookings WHERE business_id = ? AND id = ?";
      expect(await count(t.shard, booked, t.businessId, booking.id)).toBe(1);
      expect(await count(t.shard === 0 ? 1 : 0, booked, t.businessId, booking.id)).toBe(0);
    }
  });
});
