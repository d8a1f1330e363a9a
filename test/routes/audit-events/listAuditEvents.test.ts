/** GET /audit-events: the business's changes newest first, by resource or actor, paged by cursor. */
import { describe, expect, it } from "vitest";
import { keyWith } from "../../support/access";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

type Record = { id: string; actor: { type: string; id: string }; action: string; resource: { id: string } };

const audit = async (key: string, query = "") => {
  const res = await api("GET", `/audit-events${query}`, { key });
  expect(res.status).toBe(200);
  return (await json(res)) as { data: Record[]; pagination: { nextCursor: string | null; total: number } };
};

/** A business whose key `admin` (business, catalog and keys) made three changes of its own. */
async function busyBusiness() {
  const admin = await keyWith(["business:write", "catalog:write", "keys:write", "bookings:read"]);
  const made = await keyWith(["bookings:read"], admin.key);
  await api("DELETE", `/api-keys/${made.id}`, { key: admin.key });
  await api("PATCH", "/business", { key: admin.key, body: { name: "Renamed" } });
  return { admin, made };
}

describe("happy", () => {
  it("newest first, each naming its actor, action, resource and field names", async () => {
    const { admin, made } = await busyBusiness();
    const { data } = await audit(admin.key, `?actorId=${admin.id}`);
    expect(data.map((r) => r.action)).toEqual(["business.updated", "apiKey.revoked", "apiKey.created"]);
    expect(data.every((r) => r.actor.type === "apiKey" && r.actor.id === admin.id)).toBe(true);
    expect(data[0]).toMatchObject({ resource: { type: "business" }, fields: ["name"] });
    expect(data[1]).toMatchObject({ resource: { type: "apiKey", id: made.id }, fields: ["revokedAt"] });
    expect(data[0]?.id).toMatch(/^aud_[0-9a-z]{26}$/);
  });

  it("resourceId narrows to one resource's records", async () => {
    const { admin, made } = await busyBusiness();
    const { data } = await audit(admin.key, `?resourceId=${made.id}`);
    expect(data.map((r) => r.action)).toEqual(["apiKey.revoked", "apiKey.created"]);
  });

  it("cursor pages read every record once, newest first, and end with a null nextCursor", async () => {
    const { admin } = await busyBusiness();
    for (const n of [1, 2, 3]) await createService(admin.key, { name: `Service ${n}` });
    const all = (await audit(admin.key, "?limit=100")).data.map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page = await audit(admin.key, `?limit=2${cursor ? `&after=${cursor}` : ""}`);
      seen.push(...page.data.map((r) => r.id));
      cursor = page.pagination.nextCursor;
    }
    expect(seen).toEqual(all);
    expect([...all].sort().reverse()).toEqual(all);
  });
});

describe("error", () => {
  it("422 naming the parameter: a foreign cursor, a malformed id, an unknown parameter", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/audit-events?after=WyJ4Il0", { key: apiKey }), "after");
    await validationError(await api("GET", "/audit-events?resourceId=%3Cscript%3E", { key: apiKey }), "resourceId");
    await validationError(await api("GET", "/audit-events?limit=101", { key: apiKey }), "limit");
    await validationError(await api("GET", "/audit-events?customerEmail=a%40b.c", { key: apiKey }), "customerEmail");
  });
});

describe("security", () => {
  it("401 without a key and for a revoked key", async () => {
    const { businessId } = await createAccount();
    await expectUnauthorized(await api("GET", "/audit-events"), false);
    await expectUnauthorized(await api("GET", "/audit-events", { key: await revokedKey(businessId) }), true);
  });

  it("403 business:write for a key without it", async () => {
    const { key } = await keyWith(["bookings:read", "catalog:write", "keys:write"]);
    expect((await problem(await api("GET", "/audit-events", { key }), 403, "insufficient_scope")).scope).toBe(
      "business:write",
    );
  });

  it("another business's records are never listed, even by their resource or actor id", async () => {
    const { admin, made } = await busyBusiness();
    const { apiKey } = await createAccount();
    expect((await audit(apiKey, `?resourceId=${made.id}`)).data).toEqual([]);
    expect((await audit(apiKey, `?actorId=${admin.id}`)).data).toEqual([]);
    expect((await audit(apiKey)).data.map((r) => r.actor.id)).not.toContain(admin.id);
  });
});
