/**
 * Tenants on two shards (docs/operations.md, "Shards"): the directory names each business's
 * shard, every row of a business lives on that shard only, and a key reaches only its own
 * business's rows whichever shard either sits on.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { leastFullShard } from "../../src/business/new-business";
import { api, json } from "../support/api";
import { expectNotFoundLikeUnknown, unknownIdLike } from "../support/security";
import { businessOn, businessTables, rowsOf } from "../support/shards";

describe("happy", () => {
  it("each business's rows are on its own shard only, and the directory holds only its account and keys", async () => {
    const [a, b] = await Promise.all([businessOn(0, "Shard zero salon"), businessOn(1, "Shard one salon")]);
    // Every table a business owns rows in is looked at, not a chosen few.
    expect(await businessTables()).toEqual(
      expect.arrayContaining(["api_keys", "bookings", "customers", "holds", "idempotency_keys", "list_counts"]),
    );
    expect((await businessTables()).length).toBeGreaterThanOrEqual(20);
    for (const t of [a, b]) {
      const other = t.shard === 0 ? 1 : 0;
      const own = await rowsOf(t.shard, t.businessId);
      // The tour's rows, written by the API and by the calendar's write-behind, all on its shard.
      expect(own).toMatchObject({ businesses: 1, api_keys: 1, services: 1, providers: 1, customers: 1, bookings: 1 });
      expect(own.webhook_endpoints).toBe(1);
      expect(await rowsOf(other, t.businessId)).toEqual({});
      expect(await rowsOf("directory", t.businessId)).toEqual({ businesses: 1, api_keys: 1 });
      const listed = await json(await api("GET", "/bookings", { key: t.apiKey }));
      expect(listed.data.map((booking: { id: string }) => booking.id)).toEqual([t.bookingId]);
    }
    const named = await env.DB.prepare("SELECT id, shard FROM businesses WHERE id IN (?, ?) ORDER BY shard")
      .bind(a.businessId, b.businessId)
      .all();
    expect(named.results).toEqual([
      { id: a.businessId, shard: 0 },
      { id: b.businessId, shard: 1 },
    ]);
  });

  it("a new account goes to the shard with the fewest businesses, the lowest on a tie", () => {
    expect(leastFullShard(new Map(), 2)).toBe(0);
    expect(leastFullShard(new Map([[0, 1]]), 2)).toBe(1);
    expect(
      leastFullShard(
        new Map([
          [0, 3],
          [1, 3],
        ]),
        2,
      ),
    ).toBe(0);
    expect(
      leastFullShard(
        new Map([
          [0, 5],
          [1, 2],
          [2, 4],
        ]),
        3,
      ),
    ).toBe(1);
    // A shard the deployment no longer has is not chosen.
    expect(
      leastFullShard(
        new Map([
          [0, 5],
          [1, 6],
          [2, 0],
        ]),
        2,
      ),
    ).toBe(0);
  });
});

describe("security", () => {
  it("a key reaches no row of a business on the other shard, by id or in a list", async () => {
    const [a, b] = await Promise.all([businessOn(0, "Isolated zero"), businessOn(1, "Isolated one")]);
    for (const [me, them] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const [path, id] of [
        ["/bookings", them.bookingId],
        ["/services", them.serviceId],
        ["/customers", them.customerId],
        ["/providers", them.providerId],
        ["/webhooks", them.endpointId],
      ] as const) {
        const unknown = unknownIdLike(id);
        await expectNotFoundLikeUnknown(
          await api("GET", `${path}/${id}`, { key: me.apiKey }),
          id,
          await api("GET", `${path}/${unknown}`, { key: me.apiKey }),
          unknown,
        );
        const list = await json(await api("GET", path, { key: me.apiKey }));
        expect(list.data.map((row: { id: string }) => row.id)).not.toContain(id);
      }
      const cancel = await api("POST", `/bookings/${them.bookingId}/cancel`, { key: me.apiKey, body: {} });
      expect(cancel.status).toBe(404);
    }
    // Nothing changed on the other shard.
    const stored = await env.DB_1.prepare("SELECT status FROM bookings WHERE id = ?").bind(b.bookingId).first();
    expect(stored).toEqual({ status: "CONFIRMED" });
  });
});
