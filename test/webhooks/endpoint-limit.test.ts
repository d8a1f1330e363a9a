/** A business has at most 20 webhook endpoints (deleted ones do not count); the 21st is a 409. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem } from "../support/api";

const register = (key: string, n: number) =>
  api("POST", "/webhooks", { key, body: { url: `https://hooks.example/${n}`, events: ["booking.created"] } });

const liveCount = async (key: string) =>
  (await json(await api("GET", "/webhooks?limit=100", { key }))).pagination.total as number;

describe("webhook endpoints per business", () => {
  it("the 21st is a 409 webhook_endpoint_limit that stores nothing; deleting one makes room", async () => {
    const { apiKey } = await createAccount();
    const created: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const res = await register(apiKey, n);
      expect(res.status).toBe(201);
      created.push((await json(res)).id);
    }
    const refused = await problem(await register(apiKey, 21), 409, "webhook_endpoint_limit");
    expect(refused.detail).toContain("at most 20");
    expect(await liveCount(apiKey)).toBe(20);

    // Another business is not affected.
    const other = await createAccount();
    expect((await register(other.apiKey, 1)).status).toBe(201);

    expect((await api("DELETE", `/webhooks/${created[0]}`, { key: apiKey })).status).toBe(204);
    const res = await register(apiKey, 22);
    expect(res.status).toBe(201);
    const stored = await json(await api("GET", `/webhooks/${(await json(res)).id}`, { key: apiKey }));
    expect(stored).toMatchObject({
      url: "https://hooks.example/22",
      events: ["booking.created"],
      description: null,
      status: "active",
      disabledReason: null,
      consecutiveFailures: 0,
    });
    await problem(await register(apiKey, 23), 409, "webhook_endpoint_limit");
    expect(await liveCount(apiKey)).toBe(20);
  });

  it("25 concurrent registrations: exactly 20 succeed", async () => {
    const { apiKey } = await createAccount();
    const responses = await Promise.all(Array.from({ length: 25 }, (_, n) => register(apiKey, n)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await liveCount(apiKey)).toBe(20);
  });
});
