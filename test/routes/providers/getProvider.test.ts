/** GET /providers/{id}: one provider; its ETag is its version. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { createProvider } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("gets a provider by id with its version as ETag", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const res = await api("GET", `/providers/${provider.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v1"');
    expect(await json(res)).toEqual(provider);
  });

  it("If-None-Match with the current version is a 304 without a body; after a change it is a 200", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const path = `/providers/${provider.id}`;
    const notModified = await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect(notModified.headers.get("ETag")).toBe('"v1"');
    expect((await api("PATCH", path, { key: apiKey, body: { name: "Alex M." } })).status).toBe(200);
    const changed = await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).toBe('"v2"');
  });
});

describe("error", () => {
  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/providers/prv_unknown", { key: apiKey }), 404, "not_found");
  });

  it("an id longer than 64 characters is 422 at id", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/providers/prv_${"x".repeat(61)}`, { key: apiKey }), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    await expectUnauthorized(await api("GET", `/providers/${provider.id}`), false);
  });

  it("a revoked key gets a 401 and not the provider", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey, { name: "Zelda Quixotewright" });
    const res = await api("GET", `/providers/${provider.id}`, { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("another business gets the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Salon");
    const other = await createAccount("Other");
    const provider = await createProvider(owner.apiKey, { email: "alex@owner.example" });
    const unknownId = unknownIdLike(provider.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/providers/${provider.id}`, { key: other.apiKey }),
      provider.id,
      await api("GET", `/providers/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Owner Salon", "Alex Morgan", "alex@owner.example", owner.businessId],
    );
    expect((await json(await api("GET", `/providers/${provider.id}`, { key: owner.apiKey }))).name).toBe("Alex Morgan");
  });
});
