/** GET /internal/businesses: the operator sees each business's shard, and how many businesses each shard holds. */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, createAccount, json } from "../support/api";

const admin = (path: string, token = "test-admin-token") =>
  exports.default.fetch(
    new Request(`http://api.test/internal${path}`, { headers: { Authorization: `Bearer ${token}` } }),
  );

/** Every business of the directory, page after page. */
async function everyAccount() {
  const all: { id: string; name: string; shard: number }[] = [];
  for (let after = ""; ; ) {
    const body = await json(await admin(`/businesses?limit=100&after=${after}`));
    all.push(...body.data);
    if (!body.next) return { all, shards: body.shards };
    after = body.next;
  }
}

describe("operator", () => {
  it("lists each business with its shard, and the count of businesses per shard", async () => {
    const zero = await createAccount("Listed on zero", 0);
    const one = await createAccount("Listed on one", 1);
    const { all, shards } = await everyAccount();
    expect(all.find((a) => a.id === zero.businessId)).toMatchObject({ name: "Listed on zero", shard: 0 });
    expect(all.find((a) => a.id === one.businessId)).toMatchObject({ name: "Listed on one", shard: 1 });
    expect(shards.map((s: { shard: number }) => s.shard)).toEqual([0, 1]);
    expect(shards.reduce((sum: number, s: { businesses: number }) => sum + s.businesses, 0)).toBe(all.length);
  });

  it("shows a business's name as the business last set it", async () => {
    const { apiKey, businessId } = await createAccount("Named before", 1);
    expect((await api("PATCH", "/business", { key: apiKey, body: { name: "Named after" } })).status).toBe(200);
    const { all } = await everyAccount();
    expect(all.find((a) => a.id === businessId)).toMatchObject({ name: "Named after", shard: 1 });
  });

  it("pages in id order, a bad limit is a 422, and no token is a 401", async () => {
    await createAccount("Paged a", 0);
    await createAccount("Paged b", 1);
    const first = await json(await admin("/businesses?limit=1"));
    expect(first.data).toHaveLength(1);
    const second = await json(await admin(`/businesses?limit=1&after=${first.next}`));
    expect(second.data[0].id > first.data[0].id).toBe(true);
    expect((await admin("/businesses?limit=0")).status).toBe(422);
    expect((await admin("/businesses?limit=1000")).status).toBe(422);
    expect((await admin("/businesses", "wrong")).status).toBe(401);
  });
});
