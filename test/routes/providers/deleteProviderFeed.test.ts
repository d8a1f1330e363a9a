/** DELETE /providers/{id}/feed: ends a person's calendar feed. */
import { describe, expect, it } from "vitest";
import { api, createAccount, problem, validationError } from "../../support/api";
import { feedOperationSecurity, issueFeed, readFeed } from "../../support/feeds";
import { createProvider } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("answers 204 and the address is a 404 from then on; a new POST issues a working one", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const feed = await issueFeed(apiKey, provider.id);
    const res = await api("DELETE", `/providers/${provider.id}/feed`, { key: apiKey });
    expect(res.status).toBe(204);
    await problem(await readFeed(feed.path), 404, "not_found");
    const again = await issueFeed(apiKey, provider.id);
    expect((await readFeed(again.path)).status).toBe(200);
  });

  it("ending a feed that does not exist is a 204 too: the provider has none either way", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    expect((await api("DELETE", `/providers/${provider.id}/feed`, { key: apiKey })).status).toBe(204);
    expect((await api("DELETE", `/providers/${provider.id}/feed`, { key: apiKey })).status).toBe(204);
  });
});

describe("error", () => {
  it("answers 404 for an unknown provider and 422 for an over-long id", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("DELETE", `/providers/${unknownIdLike("prv_x")}/feed`, { key: apiKey }), 404, "not_found");
    await validationError(await api("DELETE", `/providers/${"p".repeat(65)}/feed`, { key: apiKey }), "id");
  });
});

describe("security", () => feedOperationSecurity("DELETE"));
