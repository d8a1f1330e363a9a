/**
 * Members' passkeys in the directory (docs/members.md, "Passkeys"): a member's list, a new one
 * under the bound, removal by its own member only, and the lookup a sign-in makes — which finds
 * a passkey only while its member is not disabled and belongs to the passkey's business.
 */
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { recordQuery } from "../audit/record";
import { createDb } from "../db/client";
import { members, passkeys } from "../db/schema";
import { newId } from "../lib/ids";
import { insertWhere } from "../lib/rows";
import { shardDatabase } from "../shards/shards";
import { membersDb } from "./members";

/** Passkeys one member may have. */
export const MAX_PASSKEYS = 10;

/** Who a passkey belongs to: the signed-in member, and where their business's audit lives. */
export type PasskeyOwner = { memberId: string; businessId: string; shard: number };

/** A passkey as the office lists it. */
export type PasskeyListing = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** A verified credential to keep. */
export type NewPasskey = {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
};

/** The audit record of a passkey's change, on the business's shard (where the audit is read). */
async function audit(env: Env, owner: PasskeyOwner, action: string, id: string, fields: string[]) {
  const db = createDb(shardDatabase(env, owner.shard));
  await recordQuery(db, {
    businessId: owner.businessId,
    actor: { type: "member", id: owner.memberId },
    action,
    resource: { type: "passkey", id },
    fields,
  });
}

/** The member's passkeys, oldest first. */
export const passkeysOf = (env: Env, memberId: string): Promise<PasskeyListing[]> =>
  membersDb(env)
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.memberId, memberId))
    .orderBy(asc(passkeys.id));

/** The credential ids of the member's passkeys (the authenticator is told not to make a second). */
export const credentialIdsOf = async (env: Env, memberId: string) =>
  (
    await membersDb(env)
      .select({ id: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.memberId, memberId))
  ).map((row) => ({ id: row.id, transports: row.transports }));

/**
 * Keeps the passkey while the member has fewer than MAX_PASSKEYS (checked by the insert) and no
 * passkey has this credential; records `passkey.added`. Answers its id, or undefined when refused.
 */
export async function addPasskey(env: Env, owner: PasskeyOwner, key: NewPasskey, now = Date.now()) {
  const id = newId("passkey", now);
  const row = {
    id,
    businessId: owner.businessId,
    memberId: owner.memberId,
    ...key,
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
  };
  const mine = sql`(SELECT count(*) FROM passkeys AS p WHERE p.member_id = ${owner.memberId})`;
  const taken = sql`EXISTS (SELECT 1 FROM passkeys AS p WHERE p.credential_id = ${key.credentialId})`;
  const written = await insertWhere(membersDb(env), passkeys, row, sql`${mine} < ${MAX_PASSKEYS} AND NOT ${taken}`);
  if (written.meta.changes === 0) return undefined;
  await audit(env, owner, "passkey.added", id, ["name", "publicKey", "transports"]);
  return id;
}

/** Removes the member's own passkey and records `passkey.removed`; false when they have none by this id. */
export async function removePasskey(env: Env, owner: PasskeyOwner, id: string): Promise<boolean> {
  const removed = await membersDb(env)
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.memberId, owner.memberId), eq(passkeys.businessId, owner.businessId)))
    .returning({ id: passkeys.id });
  if (removed.length === 0) return false;
  await audit(env, owner, "passkey.removed", id, []);
  return true;
}

/**
 * The passkey with this credential id, if its member is a member of the passkey's business and
 * not disabled: what a sign-in may verify against. Anything else signs nobody in.
 */
export async function passkeyForSignIn(env: Env, credentialId: string) {
  const [row] = await membersDb(env)
    .select({
      id: passkeys.id,
      memberId: passkeys.memberId,
      publicKey: passkeys.publicKey,
      counter: passkeys.counter,
      transports: passkeys.transports,
    })
    .from(passkeys)
    .innerJoin(members, and(eq(members.id, passkeys.memberId), eq(members.businessId, passkeys.businessId)))
    .where(and(eq(passkeys.credentialId, credentialId), ne(members.status, "disabled")))
    .limit(1);
  return row;
}

/** Notes a sign-in with the passkey: its new counter and when it was used. */
export async function notePasskeyUse(env: Env, id: string, counter: number, now = Date.now()): Promise<void> {
  await membersDb(env)
    .update(passkeys)
    .set({ counter, lastUsedAt: new Date(now).toISOString() })
    .where(eq(passkeys.id, id));
}

/** How many passkeys the member has. */
export async function passkeyCount(env: Env, memberId: string): Promise<number> {
  const [row] = await membersDb(env).select({ n: count() }).from(passkeys).where(eq(passkeys.memberId, memberId));
  return row?.n ?? 0;
}
