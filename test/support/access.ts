/** Keys with scopes for the tests of who may do what (not a test file). */
import { expect } from "vitest";
import { api, createAccount, json } from "./api";

/**
 * A key holding exactly `scopes`, made through the API by `owner` (the first key of a new
 * business unless given): the key itself, its id and the owner's key.
 */
export async function keyWith(scopes: string[], owner?: string) {
  const ownerKey = owner ?? (await createAccount()).apiKey;
  const res = await api("POST", "/api-keys", { key: ownerKey, body: { name: `${scopes.length} scope(s)`, scopes } });
  expect(res.status).toBe(201);
  const created = await json(res);
  return { id: created.id as string, key: created.key as string, owner: ownerKey };
}
