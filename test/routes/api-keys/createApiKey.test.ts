/**
 * POST /api-keys: a key with scopes, shown once; never more scopes than the calling key holds;
 * at most 50 live keys a business, a bound a concurrent burst cannot pass.
 */

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_API_KEYS } from "../../../src/access/keys";
import { apiKeys } from "../../../src/db/schema";
import { sha256Hex } from "../../../src/lib/crypto";
import { keyWith } from "../../support/access";
import { api, createAccount, db, directoryDb, json, problem, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

const create = (key: string, body: unknown) => api("POST", "/api-keys", { key, body });

describe("happy", () => {
  it("201 with Location, the key shown once, its scopes in the document's order; only its hash is stored", async () => {
    const { apiKey, businessId } = await createAccount();
    const res = await create(apiKey, {
      name: "Front desk",
      scopes: ["customers:read", "bookings:write", "bookings:read"],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const created = await json(res);
    expect(res.headers.get("Location")).toBe(`/api/v1/api-keys/${created.id}`);
    expect(created).toMatchObject({
      name: "Front desk",
      mode: "live",
      scopes: ["bookings:read", "bookings:write", "customers:read"],
      revokedAt: null,
    });
    expect(created.key).toMatch(/^bk_live_[0-9A-Za-z]{32}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.keyHash).toBe(await sha256Hex(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    const [listed] = (await json(await api("GET", "/api-keys?limit=1", { key: apiKey }))).data;
    expect(listed).toEqual(Object.fromEntries(Object.entries(created).filter(([k]) => k !== "key")));
    expect(JSON.stringify(listed)).not.toContain(created.key);
    // The directory knows it too, so a request from an isolate that never saw it finds its shard.
    const [inDirectory] = await directoryDb().select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(inDirectory?.businessId).toBe(businessId);
  });

  it("the new key works at once, within its scopes: it reads bookings and may not read customers", async () => {
    const { key } = await keyWith(["bookings:read"]);
    expect((await api("GET", "/bookings", { key })).status).toBe(200);
    const refused = await api("GET", "/customers", { key });
    expect((await problem(refused, 403, "insufficient_scope")).scope).toBe("customers:read");
  });

  it("mode test makes a bk_test_ key", async () => {
    const { apiKey } = await createAccount();
    const created = await json(await create(apiKey, { name: "CI", scopes: ["catalog:read"], mode: "test" }));
    expect(created.key).toMatch(/^bk_test_/);
    expect(created.mode).toBe("test");
  });
});

describe("error", () => {
  it("422 naming the field: no scopes, an unknown scope, a scope twice, no name, an unknown field", async () => {
    const { apiKey } = await createAccount();
    await validationError(await create(apiKey, { name: "x", scopes: [] }), "scopes");
    await validationError(await create(apiKey, { name: "x", scopes: ["bookings:delete"] }), "scopes.0");
    await validationError(await create(apiKey, { name: "x", scopes: ["bookings:read", "bookings:read"] }), "scopes");
    await validationError(await create(apiKey, { scopes: ["bookings:read"] }), "name");
    await validationError(await create(apiKey, { name: "x", scopes: ["bookings:read"], admin: true }), "admin");
    expect((await json(await api("GET", "/api-keys", { key: apiKey }))).pagination.total).toBe(1);
  });

  it(`409 api_key_limit past ${MAX_API_KEYS} live keys, even for a concurrent burst; a revoked key frees a place`, async () => {
    const { apiKey } = await createAccount();
    const burst = await Promise.all(
      Array.from({ length: MAX_API_KEYS + 5 }, (_, i) => create(apiKey, { name: `k${i}`, scopes: ["catalog:read"] })),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_API_KEYS - 1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    await problem(burst[statuses.indexOf(409)] as Response, 409, "api_key_limit");
    const someone = await json(burst[statuses.indexOf(201)] as Response);
    expect((await api("DELETE", `/api-keys/${someone.id}`, { key: apiKey })).status).toBe(204);
    expect((await create(apiKey, { name: "again", scopes: ["catalog:read"] })).status).toBe(201);
  });
});

describe("security", () => {
  it("401 without a key and for a revoked key", async () => {
    const { businessId } = await createAccount();
    await expectUnauthorized(await api("POST", "/api-keys", { body: { name: "x", scopes: ["catalog:read"] } }), false);
    await expectUnauthorized(await create(await revokedKey(businessId), { name: "x", scopes: ["catalog:read"] }), true);
  });

  it("a key never makes a key with a scope it lacks: 403 naming the scope, and no key is made", async () => {
    const { key, owner } = await keyWith(["keys:write", "bookings:read"]);
    const res = await create(key, { name: "wider", scopes: ["bookings:read", "customers:write"] });
    expect((await problem(res, 403, "insufficient_scope")).scope).toBe("customers:write");
    const listed = await json(await api("GET", "/api-keys", { key: owner }));
    expect(listed.data.map((k: { name: string }) => k.name)).not.toContain("wider");
    expect((await create(key, { name: "narrower", scopes: ["bookings:read"] })).status).toBe(201);
  });

  it("a key without keys:write may not make keys (403 keys:write)", async () => {
    const { key } = await keyWith(["bookings:read", "bookings:write"]);
    const res = await create(key, { name: "x", scopes: ["bookings:read"] });
    expect((await problem(res, 403, "insufficient_scope")).scope).toBe("keys:write");
  });
});
