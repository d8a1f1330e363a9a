/** API keys, the 401 challenge and tenant isolation. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeyRecord } from "../../src/business/new-business";
import { apiKeys } from "../../src/db/schema";
import { generateApiKey } from "../../src/lib/crypto";
import {
  api,
  createAccount,
  createCustomer,
  createService,
  db,
  insertBooking,
  json,
  problem,
  storeKey,
} from "../support/api";

/** A 401 `unauthorized` problem with the Bearer challenge; `keySent` adds `error="invalid_token"`. */
async function expectUnauthorized(res: Response, keySent: boolean) {
  await problem(res, 401, "unauthorized");
  const challenge = res.headers.get("WWW-Authenticate");
  expect(challenge).toBe(keySent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"');
}

/** Owner with one of each resource, and a second business. */
async function twoBusinesses() {
  const owner = await createAccount("Owner");
  const other = await createAccount("Other");
  const service = await createService(owner.apiKey, { name: "Owner's service" });
  const customer = await createCustomer(owner.apiKey, { name: "Owner's customer", email: "owner-cus@example.com" });
  const booking = await insertBooking(owner.businessId, {
    serviceId: service.id,
    customerId: customer.id,
    startTime: "2026-12-01T10:00:00.000Z",
  });
  return { owner, other, service, customer, booking };
}

/** The parts of a 404 body that must not differ between "someone else's" and "no such" id. */
function shapeOf(body: Record<string, unknown>, id: string) {
  return {
    keys: Object.keys(body).sort(),
    type: body.type,
    title: body.title,
    status: body.status,
    code: body.code,
    detail: String(body.detail).replace(id, "<id>"),
    instance: String(body.instance).replace(id, "<id>"),
  };
}

describe("happy", () => {
  it("a valid key opens the API, whatever the case of the Bearer scheme", async () => {
    const { apiKey } = await createAccount();
    for (const header of [`Bearer ${apiKey}`, `bearer ${apiKey}`, `BEARER  ${apiKey}`]) {
      const res = await api("GET", "/services", { headers: { Authorization: header } });
      expect(res.status, header).toBe(200);
    }
  });

  it.each(["/health", "/openapi.json", "/problems/not_found"])("%s needs no key", async (path) => {
    const res = await api("GET", path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  });
});

describe("errors", () => {
  it("no Authorization header is 401 with a bare Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/services"), false);
  });

  it.each([
    ["a Basic credential", "Basic dXNlcjpwYXNz"],
    ["Bearer without a key", "Bearer"],
    ["Bearer with a blank key", "Bearer    "],
    ["a key with the wrong prefix", `Bearer sk_live_${"a".repeat(32)}`],
    ["a key too short", "Bearer bk_live_abc"],
    ["a key with a space inside", `Bearer bk_live_${"a".repeat(16)} ${"b".repeat(16)}`],
  ])("%s is 401 invalid_token", async (_, header) => {
    await expectUnauthorized(await api("GET", "/services", { headers: { Authorization: header } }), true);
  });

  it("a well-formed but unknown key is 401 invalid_token", async () => {
    await expectUnauthorized(await api("GET", "/services", { key: generateApiKey("live") }), true);
  });

  it("a revoked key stops working at once", async () => {
    const account = await createAccount();
    expect((await api("GET", "/services", { key: account.apiKey })).status).toBe(200);
    await db()
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(apiKeys.businessId, account.businessId));
    await expectUnauthorized(await api("GET", "/services", { key: account.apiKey }), true);
    await expectUnauthorized(
      await api("POST", "/customers", { key: account.apiKey, body: { name: "X", email: "x@example.com" } }),
      true,
    );
  });

  // A read from a key the isolate has already seen checks the key in its own D1 batch (lists) or
  // after the handler (every other read). Each read gets a key of its own, used once and then
  // revoked, so every path is the first read of a revoked key the isolate still remembers.
  it("a key revoked after it was used gets a 401 for every kind of read, and no data", async () => {
    const t = await twoBusinesses();
    const reads = [
      "/services",
      "/services?active=false",
      "/customers",
      "/customers?search=owner",
      "/bookings",
      `/bookings?serviceId=${t.service.id}&status=CONFIRMED`,
      `/bookings/${t.booking.id}`,
      `/customers/${t.customer.id}`,
      `/services/${t.service.id}`,
      `/services/${t.service.id}/availability?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z`,
      "/bookings/bkg_00000000000000000000000000",
    ];
    for (const [i, path] of reads.entries()) {
      const key = generateApiKey("test");
      await storeKey(await apiKeyRecord(`key_read_${i}`, t.owner.businessId, key));
      expect((await api("GET", path, { key })).status).not.toBe(401);
      await db()
        .update(apiKeys)
        .set({ revokedAt: new Date().toISOString() })
        .where(eq(apiKeys.id, `key_read_${i}`));
      await expectUnauthorized(await api("GET", path, { key }), true);
    }
    // The business's first key, never revoked, still reads.
    expect((await api("GET", "/bookings", { key: t.owner.apiKey })).status).toBe(200);
  });

  it("reads from two businesses interleaved each see only their own rows", async () => {
    const t = await twoBusinesses();
    for (let round = 0; round < 3; round++) {
      const mine = await json(await api("GET", "/bookings", { key: t.owner.apiKey }));
      const theirs = await json(await api("GET", "/bookings", { key: t.other.apiKey }));
      expect(mine.data.map((b: { id: string }) => b.id)).toEqual([t.booking.id]);
      expect(theirs.data).toEqual([]);
      expect(theirs.pagination.total).toBe(0);
      expect((await json(await api("GET", "/services", { key: t.other.apiKey }))).data).toEqual([]);
      expect((await json(await api("GET", "/customers", { key: t.other.apiKey }))).data).toEqual([]);
    }
  });

  it("the 401 does not say whether the key was unknown, revoked or malformed", async () => {
    const account = await createAccount();
    await db()
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(apiKeys.businessId, account.businessId));
    const details = new Set<string>();
    for (const key of [account.apiKey, generateApiKey("test"), "bk_live_short"]) {
      details.add((await problem(await api("GET", "/customers", { key }), 401, "unauthorized")).detail);
    }
    expect(details.size).toBe(1);
  });
});

describe("security", () => {
  it.each([
    ["service", "/services"],
    ["customer", "/customers"],
    ["booking", "/bookings"],
  ] as const)("another business gets the same 404 for the owner's %s as for an unknown id", async (kind, base) => {
    const t = await twoBusinesses();
    const id = { service: t.service.id, customer: t.customer.id, booking: t.booking.id }[kind];
    const foreign = await problem(await api("GET", `${base}/${id}`, { key: t.other.apiKey }), 404, "not_found");
    const unknownId = `${id.slice(0, 4)}${"0".repeat(26)}`;
    const unknown = await problem(await api("GET", `${base}/${unknownId}`, { key: t.other.apiKey }), 404, "not_found");
    expect(shapeOf(foreign, id)).toEqual(shapeOf(unknown, unknownId));
    expect(JSON.stringify(foreign)).not.toContain("Owner");
    // The owner still sees it.
    expect((await api("GET", `${base}/${id}`, { key: t.owner.apiKey })).status).toBe(200);
  });

  it("lists never show another business's rows", async () => {
    const t = await twoBusinesses();
    await createService(t.owner.apiKey, { name: "Owner's retired service", active: false });
    for (const path of ["/services", "/services?active=false", "/customers", "/customers?search=owner", "/bookings"]) {
      const body = await json(await api("GET", path, { key: t.other.apiKey }));
      expect(body.data, path).toEqual([]);
      expect(body.pagination.total, path).toBe(0);
    }
  });
});

describe("unknown keys", () => {
  it("a well-formed key that matched nothing is refused from the isolate's cache, without a second lookup", async () => {
    const { businessId } = await createAccount();
    const key = generateApiKey("test");
    await problem(await api("GET", "/services", { key }), 401, "unauthorized");
    // Were D1 asked again, this row would now let the key in; the cache answers instead.
    const record = await apiKeyRecord("key_unknown_then_stored", businessId, key);
    await storeKey(record);
    await problem(await api("GET", "/services", { key }), 401, "unauthorized");
  });
});
