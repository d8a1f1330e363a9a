/**
 * Who may do what, against `npm run dev` (every answer contract-checked): API keys with scopes,
 * members, and the audit that records each change with its actor.
 */
import createClient from "openapi-fetch";
import { afterAll, describe, expect, it } from "vitest";
import type { paths } from "./.generated/api";
import { api, baseUrl, expectProblem, unique } from "./support";

const madeKeys: string[] = [];
const madeMembers: string[] = [];

afterAll(async () => {
  for (const id of madeKeys) await api.DELETE("/api-keys/{id}", { params: { path: { id } } });
  for (const id of madeMembers) await api.DELETE("/members/{id}", { params: { path: { id } } });
});

describe("API keys", () => {
  it("a key made with one scope is shown once, listed without it, refused outside its scope, and revoked", async () => {
    const { data, response } = await api.POST("/api-keys", { body: { name: "e2e reader", scopes: ["bookings:read"] } });
    expect(response.status).toBe(201);
    if (!data) throw new Error("no key");
    madeKeys.push(data.id);
    expect(data.scopes).toEqual(["bookings:read"]);
    const listed = await api.GET("/api-keys", { params: { query: { limit: 100 } } });
    const entry = listed.data?.data.find((k) => k.id === data.id);
    expect(entry).toMatchObject({ name: "e2e reader", scopes: ["bookings:read"], revokedAt: null });
    expect(JSON.stringify(listed.data)).not.toContain(data.key);

    const reader = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${data.key}` } });
    expect((await reader.GET("/bookings")).response.status).toBe(200);
    const refused = await reader.GET("/customers");
    expectProblem(refused.response, refused.error, 403, "insufficient_scope");

    const revoked = await api.DELETE("/api-keys/{id}", { params: { path: { id: data.id } } });
    expect(revoked.response.status).toBe(204);
    expect((await reader.GET("/bookings")).response.status).toBe(401);
  });

  it("an unknown scope is a 422 naming it", async () => {
    const { error, response } = await api.POST("/api-keys", {
      // @ts-expect-error: a scope the document does not list
      body: { name: "bad", scopes: ["bookings:delete"] },
    });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("members", () => {
  it("invited, read, renamed, signed out everywhere and removed; each change in the audit", async () => {
    const email = `${unique("desk")}@example.com`;
    const created = await api.POST("/members", { body: { email, name: "Front Desk", role: "frontdesk" } });
    expect(created.response.status).toBe(201);
    const member = created.data;
    if (!member) throw new Error("no member");
    madeMembers.push(member.id);
    expect(member).toMatchObject({ email, role: "frontdesk", status: "invited", providerId: null });

    const read = await api.GET("/members/{id}", { params: { path: { id: member.id } } });
    expect(read.data?.id).toBe(member.id);
    const list = await api.GET("/members", { params: { query: { limit: 100 } } });
    expect(list.data?.data.some((m) => m.id === member.id)).toBe(true);
    const renamed = await api.PATCH("/members/{id}", {
      params: { path: { id: member.id } },
      body: { name: "Front Desk Two" },
    });
    expect(renamed.data?.name).toBe("Front Desk Two");
    const signedOut = await api.POST("/members/{id}/sessions/revoke", { params: { path: { id: member.id } } });
    expect(signedOut.response.status).toBe(204);

    const audit = await api.GET("/audit-events", { params: { query: { resourceId: member.id } } });
    expect(audit.response.status).toBe(200);
    const text = JSON.stringify(audit.data);
    expect(text).not.toContain(email);

    const removed = await api.DELETE("/members/{id}", { params: { path: { id: member.id } } });
    expect(removed.response.status).toBe(204);
    madeMembers.pop();
    const gone = await api.GET("/members/{id}", { params: { path: { id: member.id } } });
    expect(gone.response.status).toBe(404);
  });

  it("a staff member needs a provider: 422 naming providerId", async () => {
    const { error, response } = await api.POST("/members", {
      body: { email: `${unique("staff")}@example.com`, name: "Staff", role: "staff" },
    });
    expectProblem(response, error, 422, "validation_failed");
  });
});

describe("audit events", () => {
  it("lists the business's changes newest first, with actors and field names", async () => {
    const { data, response } = await api.GET("/audit-events", { params: { query: { limit: 5 } } });
    expect(response.status).toBe(200);
    const at = (data?.data ?? []).map((e) => e.at);
    expect([...at].sort().reverse()).toEqual(at);
  });
});
