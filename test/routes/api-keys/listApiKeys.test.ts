/** GET /api-keys: the business's keys, newest first, live and revoked; never a key or a hash. */
import { describe, expect, it } from "vitest";
import { keyWith } from "../../support/access";
import { api, createAccount, json, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

describe("happy", () => {
  it("newest first, the first key listing every scope, a revoked key with its revokedAt", async () => {
    const { apiKey } = await createAccount();
    const made = await json(
      await api("POST", "/api-keys", { key: apiKey, body: { name: "Desk", scopes: ["bookings:read"] } }),
    );
    expect((await api("DELETE", `/api-keys/${made.id}`, { key: apiKey })).status).toBe(204);
    const page = await json(await api("GET", "/api-keys", { key: apiKey }));
    expect(page.pagination.total).toBe(2);
    const [desk, first] = page.data;
    expect(desk).toMatchObject({ id: made.id, name: "Desk", scopes: ["bookings:read"] });
    expect(desk.revokedAt).toEqual(expect.any(String));
    expect(first).toMatchObject({ name: "First key", revokedAt: null });
    expect(first.scopes).toHaveLength(9);
    const text = JSON.stringify(page);
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/keyHash|key_hash/);
  });
});

describe("error", () => {
  it("422 for a limit over 100 or an unknown parameter", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/api-keys?limit=101", { key: apiKey }), "limit");
    await validationError(await api("GET", "/api-keys?mode=live", { key: apiKey }), "mode");
  });
});

describe("security", () => {
  it("401 without a key and for a revoked key", async () => {
    const { businessId } = await createAccount();
    await expectUnauthorized(await api("GET", "/api-keys"), false);
    await expectUnauthorized(await api("GET", "/api-keys", { key: await revokedKey(businessId) }), true);
  });

  it("another business's keys are never listed; a key without keys:write is refused", async () => {
    const mine = await createAccount();
    await keyWith(["bookings:read"]);
    const page = await json(await api("GET", "/api-keys", { key: mine.apiKey }));
    expect(page.data).toHaveLength(1);
    const { key } = await keyWith(["bookings:read"]);
    expect((await api("GET", "/api-keys", { key })).status).toBe(403);
  });
});
