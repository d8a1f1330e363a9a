/** GET /resources: the business's active (or inactive) resources, newest first, paginated. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, validationError } from "../../support/api";
import { createResource } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

describe("happy", () => {
  it("lists active resources newest first; active=false lists the others; pages with Link", async () => {
    const { apiKey } = await createAccount();
    const a = await createResource(apiKey, { name: "A" });
    const b = await createResource(apiKey, { name: "B" });
    const off = await createResource(apiKey, { name: "Off", active: false });
    const body = await json(await api("GET", "/resources", { key: apiKey }));
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
    expect(body.pagination).toMatchObject({ page: 1, total: 2 });
    const inactive = await json(await api("GET", "/resources?active=false", { key: apiKey }));
    expect(inactive.data.map((r: { id: string }) => r.id)).toEqual([off.id]);
    const paged = await api("GET", "/resources?limit=1", { key: apiKey });
    expect((await json(paged)).data.map((r: { id: string }) => r.id)).toEqual([b.id]);
    expect(paged.headers.get("Link")).toContain('</api/v1/resources?limit=1&page=2>; rel="next"');
  });
});

describe("error", () => {
  it.each([
    ["an unknown query field", "?name=x", "name"],
    ["a bad active filter", "?active=yes", "active"],
    ["a limit over 100", "?limit=101", "limit"],
  ])("rejects %s with 422", async (_, query, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/resources${query}`, { key: apiKey }), path);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/resources"), false);
  });

  it("a revoked key: 401 and no resources", async () => {
    const { apiKey, businessId } = await createAccount();
    await createResource(apiKey, { name: "Hidden room" });
    const res = await api("GET", "/resources", { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Hidden room");
  });

  it("lists only the caller's resources", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    await createResource(owner.apiKey);
    expect((await json(await api("GET", "/resources", { key: other.apiKey }))).pagination.total).toBe(0);
  });
});
