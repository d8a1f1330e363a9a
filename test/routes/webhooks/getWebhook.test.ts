/** GET /webhooks/{id}: one endpoint, without its secret. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { createWebhook, unreachableReceiver } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("answers the endpoint as registered, without its secret", async () => {
    const { apiKey } = await createAccount();
    const { secret, ...endpoint } = await createWebhook(apiKey, { description: "Front desk" });
    const res = await api("GET", `/webhooks/${endpoint.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(await json(res)).toEqual(endpoint);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("secret");
  });
});

describe("error", () => {
  it("an unknown id is 404, a deleted endpoint too", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/webhooks/whk_unknown", { key: apiKey }), 404, "not_found");
    const webhook = await createWebhook(apiKey);
    expect((await api("DELETE", `/webhooks/${webhook.id}`, { key: apiKey })).status).toBe(204);
    await problem(await api("GET", `/webhooks/${webhook.id}`, { key: apiKey }), 404, "not_found");
  });

  it("an id longer than 64 characters is 422 at id", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/webhooks/whk_${"x".repeat(61)}`, { key: apiKey }), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const webhook = await createWebhook(apiKey);
    await expectUnauthorized(await api("GET", `/webhooks/${webhook.id}`), false);
  });

  it("a revoked key gets a 401 and not the endpoint", async () => {
    const { apiKey, businessId } = await createAccount();
    const webhook = await createWebhook(apiKey, { url: unreachableReceiver("private-path") });
    const res = await api("GET", `/webhooks/${webhook.id}`, { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("private-path");
  });

  it("another business gets the 404 of an unknown id, naming nothing of the endpoint", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const webhook = await createWebhook(owner.apiKey, {
      url: unreachableReceiver("private-path"),
      description: "Desk",
    });
    const unknownId = unknownIdLike(webhook.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/webhooks/${webhook.id}`, { key: other.apiKey }),
      webhook.id,
      await api("GET", `/webhooks/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Owner Clinic", "private-path", webhook.secret, owner.businessId],
    );
  });
});
