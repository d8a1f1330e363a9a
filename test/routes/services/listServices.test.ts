/** GET /services: the catalog, active services unless `active=false`, newest first. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, totalOf, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

describe("happy", () => {
  it("lists active services by default and inactive ones with active=false", async () => {
    const { apiKey } = await createAccount();
    const active = await createService(apiKey, { name: "Active" });
    const inactive = await createService(apiKey, { name: "Retired", active: false });

    const byDefault = await json(await api("GET", "/services", { key: apiKey }));
    expect(byDefault.data.map((s: { id: string }) => s.id)).toEqual([active.id]);
    expect(byDefault.pagination.total).toBe(1);

    const explicitTrue = await json(await api("GET", "/services?active=true", { key: apiKey }));
    expect(explicitTrue.data.map((s: { id: string }) => s.id)).toEqual([active.id]);

    const onlyInactive = await json(await api("GET", "/services?active=false", { key: apiKey }));
    expect(onlyInactive.data.map((s: { id: string }) => s.id)).toEqual([inactive.id]);
    expect(onlyInactive.data[0]).toEqual(inactive);
  });

  it("lists newest first in the list envelope, with a Link header that keeps active", async () => {
    const { apiKey } = await createAccount();
    const first = await createService(apiKey, { name: "First" });
    const second = await createService(apiKey, { name: "Second" });
    const third = await createService(apiKey, { name: "Third" });
    const res = await api("GET", "/services?limit=2&active=true", { key: apiKey });
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page.data).toEqual([third, second]);
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, hasMore: true });
    const link = res.headers.get("Link") ?? "";
    expect(link).toContain('</api/v1/services?limit=2&active=true&page=2>; rel="next"');
    const next = await json(await api("GET", "/services?limit=2&active=true&page=2", { key: apiKey }));
    expect(next.data).toEqual([first]);
  });
});

describe("error", () => {
  it("rejects active=maybe", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/services?active=maybe", { key: apiKey }), "active");
  });

  it.each([
    ["limit=0", "limit"],
    ["page=0", "page"],
    ["search=cut", "search"],
    ["active=true&active=false", "active"],
  ])("?%s is 422 naming the parameter", async (query, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/services?${query}`, { key: apiKey }), path);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/services"), false);
  });

  it("a revoked key gets a 401 and no list", async () => {
    const { apiKey, businessId } = await createAccount();
    await createService(apiKey, { name: "Secret recipe" });
    const res = await api("GET", "/services", { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Secret recipe");
  });

  it("another business lists none of the owner's services, active or not", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    await createService(owner.apiKey);
    await createService(owner.apiKey, { active: false });
    expect(await totalOf(other.apiKey, "/services")).toBe(0);
    expect(await totalOf(other.apiKey, "/services?active=false")).toBe(0);
    expect(await totalOf(owner.apiKey, "/services")).toBe(1);
  });
});
