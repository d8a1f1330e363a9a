/**
 * The audit of changes made in D1: each change's record is written in the change's own batch,
 * only when the change was, with field names and never a customer's details.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../src/db/schema";
import { keyWith } from "../support/access";
import { api, createAccount, createCustomer, createService, db, json, problem } from "../support/api";
import { createWebhook, unreachableReceiver } from "../support/fixtures";

type Entry = {
  action: string;
  actor: { type: string; id: string };
  resource: { type: string; id: string };
  fields: string[];
};

const recordsOf = async (key: string, resourceId: string): Promise<Entry[]> => {
  const res = await api("GET", `/audit-events?resourceId=${resourceId}&limit=100`, { key });
  expect(res.status).toBe(200);
  return (await json(res)).data;
};

/** A key with every scope these tests use, and its id: the actor its changes name. */
const admin = () =>
  keyWith([
    "business:write",
    "catalog:write",
    "catalog:read",
    "customers:write",
    "customers:read",
    "keys:write",
    "bookings:read",
    "bookings:write",
  ]);

describe("recorded with the change", () => {
  it("a service created and changed: its records name the key and the fields, newest first", async () => {
    const { id: actorId, key } = await admin();
    const service = await createService(key, { name: "Cut" });
    const res = await api("PATCH", `/services/${service.id}`, {
      key,
      body: { name: "Cut & dry", durationMinutes: 45 },
    });
    expect(res.status).toBe(200);
    const records = await recordsOf(key, service.id);
    expect(records.map((r) => r.action)).toEqual(["service.updated", "service.created"]);
    expect(records[0]).toMatchObject({
      actor: { type: "apiKey", id: actorId },
      resource: { type: "service", id: service.id },
      fields: ["durationMinutes", "name"],
    });
  });

  it("a webhook created and deleted, the manage links rotated", async () => {
    const { key, businessId } = await admin().then(async (a) => ({
      ...a,
      businessId: (await json(await api("GET", "/business", { key: a.key }))).id as string,
    }));
    const hook = await createWebhook(key, { url: unreachableReceiver("audit") });
    expect((await api("DELETE", `/webhooks/${hook.id}`, { key })).status).toBe(204);
    expect((await recordsOf(key, hook.id)).map((r) => [r.action, r.fields])).toEqual([
      ["webhook.deleted", ["deletedAt"]],
      ["webhook.created", ["events", "url"]],
    ]);
    expect((await api("POST", "/manage-links/rotate", { key })).status).toBe(200);
    expect((await recordsOf(key, businessId)).map((r) => r.action)).toContain("manageLinks.rotated");
  });
});

describe("nothing recorded for what did not change", () => {
  it("a business update refused by If-Match (412), a key revoked twice, a customer's e-mail taken (409)", async () => {
    const { key } = await admin();
    const business = await json(await api("GET", "/business", { key }));
    const stale = await api("PATCH", "/business", { key, headers: { "If-Match": '"0"' }, body: { name: "Stale" } });
    expect(stale.status).toBe(412);
    expect(await recordsOf(key, business.id)).toEqual([]);

    const other = await keyWith(["bookings:read"], key);
    await api("DELETE", `/api-keys/${other.id}`, { key });
    await api("DELETE", `/api-keys/${other.id}`, { key });
    expect((await recordsOf(key, other.id)).map((r) => r.action)).toEqual(["apiKey.revoked", "apiKey.created"]);

    await createCustomer(key, { email: "taken@example.com" });
    await problem(
      await api("POST", "/customers", { key, body: { name: "Twin", email: "TAKEN@example.com" } }),
      409,
      "customer_exists",
    );
    const all = await json(await api("GET", "/audit-events?limit=100", { key }));
    expect(all.data.filter((r: Entry) => r.action === "customer.created")).toHaveLength(1);
  });

  it("25 concurrent webhook registrations: 20 endpoints and exactly 20 records", async () => {
    const { apiKey } = await createAccount();
    const body = (n: number) => ({ url: unreachableReceiver(`c${n}`), events: ["booking.created"] });
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, n) => api("POST", "/webhooks", { key: apiKey, body: body(n) })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
    const all = await json(await api("GET", "/audit-events?limit=100", { key: apiKey }));
    expect(all.data.filter((r: Entry) => r.action === "webhook.created")).toHaveLength(20);
  });
});

describe("a customer's details are never in the audit", () => {
  it("created, changed and erased: records name fields only, and no column holds the person", async () => {
    const { key } = await admin();
    const person = { name: "Ada Lovelace-Audit", email: "ada.audit@example.com", phone: "+44 20 7946 0001" };
    const customer = await createCustomer(key, person);
    const moved = { name: "Ada King-Audit", email: "ada.king.audit@example.com", phone: "+44 20 7946 0002" };
    expect((await api("PATCH", `/customers/${customer.id}`, { key, body: moved })).status).toBe(200);
    expect((await api("DELETE", `/customers/${customer.id}`, { key })).status).toBe(204);

    const records = await recordsOf(key, customer.id);
    expect(records.map((r) => [r.action, r.fields])).toEqual([
      ["customer.erased", ["email", "name", "phone"]],
      ["customer.updated", ["email", "name", "phone"]],
      ["customer.created", ["email", "name", "phone"]],
    ]);
    const stored = JSON.stringify(
      await db().select().from(auditEvents).where(eq(auditEvents.resourceId, customer.id)),
    ).toLowerCase();
    for (const detail of [...Object.values(person), ...Object.values(moved)]) {
      expect(stored).not.toContain(detail.toLowerCase());
    }
  });
});
