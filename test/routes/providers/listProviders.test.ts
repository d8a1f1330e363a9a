/** GET /providers: active providers unless `active=false`, newest first. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, totalOf, validationError } from "../../support/api";
import { createProvider } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

describe("happy", () => {
  it("lists active providers by default, inactive ones with active=false, newest first with Link", async () => {
    const { apiKey } = await createAccount();
    const first = await createProvider(apiKey, { name: "First" });
    const second = await createProvider(apiKey, { name: "Second" });
    const retired = await createProvider(apiKey, { name: "Retired", active: false });
    const res = await api("GET", "/providers?limit=1", { key: apiKey });
    const page = await json(res);
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([second.id]);
    expect(page.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2, hasMore: true });
    expect(res.headers.get("Link")).toContain('rel="next"');
    const all = await json(await api("GET", "/providers", { key: apiKey }));
    expect(all.data.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
    const inactive = await json(await api("GET", "/providers?active=false", { key: apiKey }));
    expect(inactive.data).toEqual([retired]);
  });

  it("a provider set inactive moves from the default list to active=false", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    expect((await api("PATCH", `/providers/${provider.id}`, { key: apiKey, body: { active: false } })).status).toBe(
      200,
    );
    expect(await totalOf(apiKey, "/providers")).toBe(0);
    expect((await json(await api("GET", "/providers?active=false", { key: apiKey }))).data[0].id).toBe(provider.id);
  });
});

describe("error", () => {
  it("rejects active=maybe and unknown query fields", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/providers?active=maybe", { key: apiKey }), "active");
    await validationError(await api("GET", "/providers?colour=red", { key: apiKey }), "colour");
  });

  it("a page deeper than 10,000 items is 422 on page", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/providers?limit=100&page=102", { key: apiKey }), "page");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/providers"), false);
  });

  it("a revoked key gets a 401 and no list", async () => {
    const { apiKey, businessId } = await createAccount();
    await createProvider(apiKey, { name: "Zelda Quixotewright" });
    const res = await api("GET", "/providers", { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("another business lists none of the owner's providers, active or not", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    await createProvider(owner.apiKey);
    await createProvider(owner.apiKey, { active: false });
    expect(await totalOf(other.apiKey, "/providers")).toBe(0);
    expect(await totalOf(other.apiKey, "/providers?active=false")).toBe(0);
  });
});
