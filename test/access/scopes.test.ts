/**
 * Every operation needs one scope, named in the served document and checked before anything
 * runs: a key lacking it gets 403 `insufficient_scope` naming it, and nothing changes; a key with
 * only that scope gets past the check. Keys from before scopes can do everything.
 */
import { describe, expect, it } from "vitest";
import { newApiKey } from "../../src/business/new-business";
import { scopes } from "../../src/types/scopes";
import { keyWith } from "../support/access";
import { api, createAccount, createCustomer, json, problem, storeKey } from "../support/api";
import { expectUnauthorized } from "../support/security";

type Operation = { method: string; path: string; operationId: string; scope: string[] | undefined };

/** The keyed operations of the served document, each with the scopes its `security` names. */
async function keyedOperations(): Promise<Operation[]> {
  const document = await json(await api("GET", "/openapi.json"));
  const operations: Operation[] = [];
  type Entry = { operationId: string; security?: { bearerAuth?: string[] }[] };
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Entry>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const bearer = operation.security?.find((s) => s.bearerAuth);
      if (!bearer || operation.operationId === "mcp") continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        scope: bearer.bearerAuth,
      });
    }
  }
  return operations;
}

/** The operation's path with a made-up id in each parameter: the scope is checked before any id is read. */
const concrete = (path: string) => path.replaceAll(/{[^}]+}/g, "zzz_00000000000000000000000000");

const send = (op: Operation, key: string) =>
  api(op.method, concrete(op.path), { key, ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: {} }) });

describe("happy", () => {
  it("every keyed operation of the document names exactly one known scope", async () => {
    const operations = await keyedOperations();
    expect(operations.length).toBeGreaterThan(55);
    for (const op of operations) {
      expect(op.scope, op.operationId).toHaveLength(1);
      expect(scopes, op.operationId).toContain(op.scope?.[0]);
    }
  });

  it("a key holding only an operation's scope gets past the check, for every operation", async () => {
    const { apiKey } = await createAccount();
    const byScope = new Map<string, string>();
    for (const scope of scopes) byScope.set(scope, (await keyWith([scope], apiKey)).key);
    for (const op of await keyedOperations()) {
      const res = await send(op, byScope.get(op.scope?.[0] as string) as string);
      expect(res.status, `${op.operationId} ${res.status}`).not.toBe(403);
      expect(res.status, op.operationId).not.toBe(500);
    }
  });

  it("a key from before scopes (none stored) may do everything, and make a key of every scope", async () => {
    const { businessId } = await createAccount();
    const { record, plaintext } = await newApiKey(businessId, "test");
    await storeKey({ ...record, scopes: null, name: null });
    const res = await api("POST", "/api-keys", { key: plaintext, body: { name: "all", scopes: [...scopes] } });
    expect(res.status).toBe(201);
    expect((await json(res)).scopes).toEqual([...scopes]);
  });
});

describe("security", () => {
  it("a key with every scope but an operation's own gets 403 naming it, for every operation", async () => {
    const { apiKey } = await createAccount();
    const without = new Map<string, string>();
    for (const scope of scopes) {
      without.set(
        scope,
        (
          await keyWith(
            scopes.filter((s) => s !== scope),
            apiKey,
          )
        ).key,
      );
    }
    for (const op of await keyedOperations()) {
      const scope = op.scope?.[0] as string;
      const res = await send(op, without.get(scope) as string);
      const body = await problem(res, 403, "insufficient_scope");
      expect(body.scope, op.operationId).toBe(scope);
      expect(res.headers.get("WWW-Authenticate")).toBe(
        `Bearer realm="api", error="insufficient_scope", scope="${scope}"`,
      );
    }
  });

  it("a refused change changes nothing: a customers:read key cannot erase or edit a customer", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey, { name: "Ada Lovelace" });
    const { key } = await keyWith(["customers:read"], apiKey);
    await problem(await api("DELETE", `/customers/${customer.id}`, { key }), 403, "insufficient_scope");
    await problem(
      await api("PATCH", `/customers/${customer.id}`, { key, body: { name: "Someone Else" } }),
      403,
      "insufficient_scope",
    );
    expect(await json(await api("GET", `/customers/${customer.id}`, { key }))).toMatchObject({ name: "Ada Lovelace" });
  });

  it("a revoked key hears 401, not which scopes it had, even on a read its isolate remembers", async () => {
    const { id, key, owner } = await keyWith(["bookings:read"]);
    expect((await api("GET", "/bookings", { key })).status).toBe(200);
    expect((await api("DELETE", `/api-keys/${id}`, { key: owner })).status).toBe(204);
    await expectUnauthorized(await api("GET", "/customers", { key }), true);
  });
});
