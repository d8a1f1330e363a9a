/**
 * POST /webhooks: register an endpoint for booking events. Public HTTPS receivers only (every
 * refused URL form is listed in test/webhooks/receiver-url.test.ts); the signing secret is shown
 * in this answer and never again.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/app";
import {
  api,
  createAccount,
  expectUnreadableBodiesRefused,
  json,
  origin,
  problem,
  totalOf,
  validationError,
} from "../../support/api";
import { createWebhook, unreachableReceiver } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

const webhookFields = [
  "consecutiveFailures",
  "createdAt",
  "description",
  "disabledReason",
  "events",
  "id",
  "status",
  "updatedAt",
  "url",
];

const register = (key: string, body: Record<string, unknown>) => api("POST", "/webhooks", { key, body });

/** POST /webhooks through the Worker's app with its bindings plus `extraEnv` (as `npm run dev` would run it). */
async function registerWith(extraEnv: Record<string, string>, key: string, url: string) {
  const request = new Request(`${origin}/api/v1/webhooks`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url, events: ["booking.created"] }),
  });
  const ctx = createExecutionContext();
  const response = await app.fetch(request, { ...env, ...extraEnv }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("happy", () => {
  it("201 with Location, the endpoint and its whsec_ secret, which no later answer shows", async () => {
    const { apiKey } = await createAccount();
    const url = unreachableReceiver("front-desk");
    const res = await register(apiKey, { url, events: ["booking.created", "booking.cancelled"], description: "Desk" });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(Object.keys(created).sort()).toEqual([...webhookFields, "secret"].sort());
    expect(created.id).toMatch(/^whk_[0-9a-z]{26}$/);
    expect(res.headers.get("Location")).toBe(`/api/v1/webhooks/${created.id}`);
    expect(created).toMatchObject({
      url,
      description: "Desk",
      events: ["booking.created", "booking.cancelled"],
      status: "active",
      disabledReason: null,
      consecutiveFailures: 0,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    const { secret, ...endpoint } = created;
    const read = await api("GET", `/webhooks/${created.id}`, { key: apiKey });
    const list = await api("GET", "/webhooks", { key: apiKey });
    expect(await json(read.clone())).toEqual(endpoint);
    expect((await json(list.clone())).data).toEqual([endpoint]);
    for (const answer of [read, list]) expect(await answer.text()).not.toContain(secret);
  });

  it("every endpoint gets a secret of its own; description is optional (null)", async () => {
    const { apiKey } = await createAccount();
    const a = await createWebhook(apiKey);
    const b = await createWebhook(apiKey);
    expect(a.secret).not.toBe(b.secret);
    expect(a.description).toBeNull();
  });

  it("a receiver on this machine is accepted only where the Worker runs with WEBHOOKS_ALLOW_LOCAL=true", async () => {
    const { apiKey } = await createAccount();
    const res = await registerWith({ WEBHOOKS_ALLOW_LOCAL: "true" }, apiKey, "http://127.0.0.1:8788/webhooks");
    expect(res.status).toBe(201);
    expect((await json(res)).url).toBe("http://127.0.0.1:8788/webhooks");
  });
});

describe("error", () => {
  it.each([
    ["plain http", { url: "http://hooks.example.com/x" }, "url"],
    ["a receiver on this machine (no WEBHOOKS_ALLOW_LOCAL)", { url: "http://127.0.0.1:8788/webhooks" }, "url"],
    ["an IP address", { url: "https://203.0.113.7/x" }, "url"],
    ["not a URL", { url: "hooks.example.com/x" }, "url"],
    ["an unknown event", { events: ["booking.deleted"] }, "events.0"],
    ["a repeated event", { events: ["booking.created", "booking.created"] }, "events"],
    ["no events", { events: [] }, "events"],
    ["an unknown field", { secret: "whsec_mine" }, "secret"],
  ])("%s is a 422 naming the field; nothing is registered", async (_, overrides, path) => {
    const { apiKey } = await createAccount();
    const body = { url: unreachableReceiver(), events: ["booking.created"], ...overrides };
    await validationError(await register(apiKey, body), path);
    expect(await totalOf(apiKey, "/webhooks")).toBe(0);
  });

  it("the 21st endpoint of a business is a 409 webhook_endpoint_limit", async () => {
    const { apiKey } = await createAccount();
    for (let n = 0; n < 20; n++) await createWebhook(apiKey, { url: unreachableReceiver(`n${n}`) });
    await problem(
      await register(apiKey, { url: unreachableReceiver("n20"), events: ["booking.created"] }),
      409,
      "webhook_endpoint_limit",
    );
    expect(await totalOf(apiKey, "/webhooks?limit=100")).toBe(20);
  });

  it("malformed JSON is 400, a body that is not JSON 415; nothing is registered", async () => {
    const { apiKey } = await createAccount();
    await expectUnreadableBodiesRefused(apiKey, "/webhooks", {
      url: unreachableReceiver(),
      events: ["booking.created"],
    });
    expect(await totalOf(apiKey, "/webhooks")).toBe(0);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing registered", async () => {
    const { apiKey } = await createAccount();
    await expectUnauthorized(await register("", { url: unreachableReceiver(), events: ["booking.created"] }), false);
    expect(await totalOf(apiKey, "/webhooks")).toBe(0);
  });

  it("a revoked key: 401, nothing registered and no secret handed out", async () => {
    const { apiKey, businessId } = await createAccount();
    const res = await register(await revokedKey(businessId), {
      url: unreachableReceiver(),
      events: ["booking.created"],
    });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("whsec_");
    expect(await totalOf(apiKey, "/webhooks")).toBe(0);
  });

  it("an endpoint belongs to the business that registered it: another business neither lists nor reads it", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const webhook = await createWebhook(owner.apiKey);
    expect(await totalOf(other.apiKey, "/webhooks")).toBe(0);
    await problem(await api("GET", `/webhooks/${webhook.id}`, { key: other.apiKey }), 404, "not_found");
  });
});
