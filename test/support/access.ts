/** Keys with scopes for the tests of who may do what (not a test file). */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { members } from "../../src/db/schema";
import { api, createAccount, directoryDb, json } from "./api";

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

/** A member made through the API by `owner`'s key; `active` marks them signed in once (as a sign-in would). */
export async function memberOf(
  owner: string,
  fields: { role: string; email?: string; name?: string; providerId?: string },
  active = false,
) {
  const body = { email: `m${crypto.randomUUID().slice(0, 8)}@example.com`, name: "Grace Hopper", ...fields };
  const res = await api("POST", "/members", { key: owner, body });
  expect(res.status).toBe(201);
  const member = await json(res);
  if (active) {
    await directoryDb()
      .update(members)
      .set({ status: "active", lastSignInAt: new Date().toISOString() })
      .where(eq(members.id, member.id));
  }
  return member as { id: string; email: string; role: string; status: string };
}
