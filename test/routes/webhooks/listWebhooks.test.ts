/** GET /webhooks: the business's endpoints, newest first, deleted ones left out, never a secret. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, totalOf, validationError } from "../../support/api";
import { createWebhook, unreachableReceiver } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

/** The endpoint as reads show it: without its secret. */
const withoutSecret = ({ secret: _secret, ...endpoint }: Record<string, unknown>) => endpoint;

describe("happy", () => {
  it("lists endpoints newest first without their secrets, in the list envelope with Link", async () => {
    const { apiKey } = await createAccount();
    const first = await createWebhook(apiKey, { url: unreachableReceiver("one") });
    const second = await createWebhook(apiKey, { url: unreachableReceiver("two") });
    const third = await createWebhook(apiKey, { url: unreachableReceiver("three") });
    const res = await api("GET", "/webhooks?limit=2", { key: apiKey });
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(await json(res)).toEqual({
      data: [withoutSecret(third), withoutSecret(second)],
      pagination: { page: 1, limit: 2, total: 3, totalPages: 2, hasMore: true },
    });
    for (const hook of [first, second, third]) expect(text).not.toContain(hook.secret);
    expect(res.headers.get("Link")).toContain('</api/v1/webhooks?limit=2&page=2>; rel="next"');
    expect((await json(await api("GET", "/webhooks?limit=2&page=2", { key: apiKey }))).data).toEqual([
      withoutSecret(first),
    ]);
  });

  it("leaves deleted endpoints out", async () => {
    const { apiKey } = await createAccount();
    const kept = await createWebhook(apiKey);
    const deleted = await createWebhook(apiKey);
    expect((await api("DELETE", `/webhooks/${deleted.id}`, { key: apiKey })).status).toBe(204);
    const body = await json(await api("GET", "/webhooks", { key: apiKey }));
    expect(body.data.map((w: { id: string }) => w.id)).toEqual([kept.id]);
    expect(body.pagination.total).toBe(1);
  });
});

describe("error", () => {
  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["page=0", "page"],
    ["status=active", "status"],
  ])("?%s is 422 naming the parameter", async (query, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/webhooks?${query}`, { key: apiKey }), path);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/webhooks"), false);
  });

  it("a revoked key gets a 401 and no endpoints", async () => {
    const { apiKey, businessId } = await createAccount();
    await createWebhook(apiKey, { url: unreachableReceiver("private-path") });
    const res = await api("GET", "/webhooks", { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("private-path");
  });

  it("another business lists none of the owner's endpoints", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    await createWebhook(owner.apiKey);
    expect(await totalOf(other.apiKey, "/webhooks")).toBe(0);
    expect(await totalOf(owner.apiKey, "/webhooks")).toBe(1);
  });
});
