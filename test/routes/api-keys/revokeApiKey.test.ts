/** DELETE /api-keys/{id}: the key's next request is a 401; revoking again changes nothing. */
import { describe, expect, it } from "vitest";
import { keyWith } from "../../support/access";
import { api, createAccount, json } from "../../support/api";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("204, and the key's next read and write are 401 even where its caller was remembered", async () => {
    const { id, key, owner } = await keyWith(["bookings:read", "bookings:write"]);
    expect((await api("GET", "/bookings", { key })).status).toBe(200);
    const res = await api("DELETE", `/api-keys/${id}`, { key: owner });
    expect(res.status).toBe(204);
    await expectUnauthorized(await api("GET", "/bookings", { key }), true);
    await expectUnauthorized(await api("POST", "/holds", { key, body: {} }), true);
  });

  it("revoking a revoked key again is a 204 that keeps its first revokedAt", async () => {
    const { id, owner } = await keyWith(["bookings:read"]);
    await api("DELETE", `/api-keys/${id}`, { key: owner });
    const first = (await json(await api("GET", "/api-keys", { key: owner }))).data[0].revokedAt;
    expect((await api("DELETE", `/api-keys/${id}`, { key: owner })).status).toBe(204);
    expect((await json(await api("GET", "/api-keys", { key: owner }))).data[0].revokedAt).toBe(first);
  });

  it("a key may revoke itself", async () => {
    const { id, key } = await keyWith(["keys:write"]);
    expect((await api("DELETE", `/api-keys/${id}`, { key })).status).toBe(204);
    await expectUnauthorized(await api("GET", "/api-keys", { key }), true);
  });
});

describe("error", () => {
  it("404 for an unknown id, whatever its shape", async () => {
    const { apiKey } = await createAccount();
    expect((await api("DELETE", `/api-keys/${unknownIdLike("key_x")}`, { key: apiKey })).status).toBe(404);
    expect((await api("DELETE", "/api-keys/nope", { key: apiKey })).status).toBe(404);
  });
});

describe("security", () => {
  it("401 without a key and for a revoked key", async () => {
    const { businessId } = await createAccount();
    await expectUnauthorized(await api("DELETE", `/api-keys/${unknownIdLike("key_x")}`), false);
    const revoked = await revokedKey(businessId);
    await expectUnauthorized(await api("DELETE", `/api-keys/${unknownIdLike("key_x")}`, { key: revoked }), true);
  });

  it("another business's key is a 404 like an unknown one, and stays live", async () => {
    const other = await keyWith(["bookings:read"]);
    const { apiKey } = await createAccount();
    const unknown = unknownIdLike(other.id);
    await expectNotFoundLikeUnknown(
      await api("DELETE", `/api-keys/${other.id}`, { key: apiKey }),
      other.id,
      await api("DELETE", `/api-keys/${unknown}`, { key: apiKey }),
      unknown,
    );
    expect((await api("GET", "/bookings", { key: other.key })).status).toBe(200);
  });
});
