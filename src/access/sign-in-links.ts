/**
 * Sign-in links (docs/members.md, "Signing in"): a token of sign-in-token.ts names its row. D1
 * holds the id only, never the link: a copy of the database forges none. A link is good once, for 15 minutes.
 * Every request for one is a row (an unknown address too, with no member), so the bounds per
 * address and per client count both alike, and each row is written by one statement that checks
 * both bounds.
 */
import { and, count, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { members, signInLinks } from "../db/schema";
import { sha256Hex } from "../lib/crypto";
import { membersDb } from "./members";
import { newSignInLinkId, signInToken, signInTokenPattern } from "./sign-in-token";

/** How long a link is good for. */
export const LINK_TTL_MS = 15 * 60_000;
/** Sign-in e-mails per address per 15 minutes. */
export const PER_ADDRESS = 5;
/** Sign-in requests per client address per 15 minutes. */
export const PER_CLIENT = 30;
/** Memberships one address gets links for at once (one per business it is a member of). */
const MAX_MEMBERSHIPS = 5;

/** The row id a well-formed, well-signed token names; undefined for anything else. */
async function verifiedId(env: Env, token: string): Promise<string | undefined> {
  const match = signInTokenPattern.exec(token);
  if (!match || !env.MANAGE_LINK_SECRET) return undefined;
  const [, id, signature] = match as unknown as [string, string, string];
  return (await signInToken(env.MANAGE_LINK_SECRET, id)) === `${id}.${signature}` ? id : undefined;
}

/**
 * Records a request for sign-in links to `email` from `client`: one row per membership of the
 * address (or one without a member for an unknown address), each inserted only while the address
 * has fewer than PER_ADDRESS and the client fewer than PER_CLIENT rows of the last 15 minutes —
 * checked by the insert itself. Answers the ids of the links to send, and whether the bound held.
 */
export async function requestSignIn(env: Env, email: string, client: string, now = Date.now()) {
  const dir = membersDb(env);
  const address = email.trim().toLowerCase();
  const [emailHash, clientHash] = await Promise.all([sha256Hex(address), sha256Hex(client)]);
  const found = await dir
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.email, address), ne(members.status, "disabled")))
    .limit(MAX_MEMBERSHIPS);
  const since = new Date(now - LINK_TTL_MS).toISOString();
  const recent = (column: typeof signInLinks.emailHash | typeof signInLinks.clientHash, hash: string) =>
    sql`(${dir
      .select({ n: count() })
      .from(signInLinks)
      .where(and(eq(column, hash), gt(signInLinks.createdAt, since)))})`;
  const rows = (found.length ? found.map((m) => m.id) : [null]).map((memberId) => ({
    id: newSignInLinkId(),
    memberId,
  }));
  const value = <T>(v: T) => sql`${v}`;
  const inserts = rows.map((row) =>
    dir
      .insert(signInLinks)
      .select(
        dir
          .select({
            id: value(row.id).as("id"),
            memberId: value(row.memberId).as("member_id"),
            emailHash: value(emailHash).as("email_hash"),
            clientHash: value(clientHash).as("client_hash"),
            createdAt: value(new Date(now).toISOString()).as("created_at"),
            expiresAt: value(new Date(now + LINK_TTL_MS).toISOString()).as("expires_at"),
            usedAt: value(null).as("used_at"),
          })
          .from(sql`(SELECT 1)`)
          .where(
            and(
              sql`${recent(signInLinks.emailHash, emailHash)} < ${PER_ADDRESS}`,
              sql`${recent(signInLinks.clientHash, clientHash)} < ${PER_CLIENT}`,
            ),
          ),
      )
      .returning({ id: signInLinks.id, memberId: signInLinks.memberId }),
  );
  const written = (await dir.batch(inserts as [(typeof inserts)[0], ...typeof inserts])).flat();
  return { bounded: written.length < rows.length, send: written.filter((r) => r.memberId !== null).map((r) => r.id) };
}

/**
 * Spends a link: answers its member's id once, if the token is well signed, unused, unexpired and
 * names a member — one UPDATE marks it used, so a replay (or two at once) finds nothing.
 */
export async function redeemSignIn(env: Env, token: string, now = Date.now()): Promise<string | undefined> {
  const id = await verifiedId(env, token);
  if (!id) return undefined;
  const [spent] = await membersDb(env)
    .update(signInLinks)
    .set({ usedAt: new Date(now).toISOString() })
    .where(
      and(
        eq(signInLinks.id, id),
        isNull(signInLinks.usedAt),
        isNotNull(signInLinks.memberId),
        gt(signInLinks.expiresAt, new Date(now).toISOString()),
      ),
    )
    .returning({ memberId: signInLinks.memberId });
  return spent?.memberId ?? undefined;
}
