/**
 * The challenges of passkey ceremonies (docs/members.md, "Passkeys"): made by the server, kept in
 * the directory for 5 minutes, spent by one UPDATE so a replay — or two answers at once — finds
 * nothing. One to add a passkey belongs to the session that asked for it; one to sign in is
 * counted per client, at most PER_CLIENT in 15 minutes (adding ones per session), a bound checked
 * by its own insert.
 */
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { passkeyChallenges } from "../db/schema";
import { base64url, sha256Hex } from "../lib/crypto";
import { membersDb } from "./members";
import { LINK_TTL_MS, PER_CLIENT } from "./sign-in-links";

/** How long a ceremony may take. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

type Purpose = "register" | "sign-in";

/**
 * A new challenge for `purpose`, bound to `sessionId` (the session's hash) when adding a passkey.
 * It is written only while fewer than PER_CLIENT of the last 15 minutes (the e-mail sign-in's
 * window and bound per client) were made for the same client (a sign-in's) or the same session
 * (an adding one's); undefined when that bound held.
 */
export async function issueChallenge(
  env: Env,
  purpose: Purpose,
  client: string,
  sessionId: string | null,
  now = Date.now(),
): Promise<string | undefined> {
  const dir = membersDb(env);
  const challenge = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const clientHash = await sha256Hex(client);
  const value = <T>(v: T) => sql`${v}`;
  const recent = dir
    .select({ n: count() })
    .from(passkeyChallenges)
    .where(
      and(
        sessionId === null ? eq(passkeyChallenges.clientHash, clientHash) : eq(passkeyChallenges.sessionId, sessionId),
        eq(passkeyChallenges.purpose, purpose),
        gt(passkeyChallenges.createdAt, new Date(now - LINK_TTL_MS).toISOString()),
      ),
    );
  const written = await dir
    .insert(passkeyChallenges)
    .select(
      dir
        .select({
          id: value(challenge).as("id"),
          purpose: value(purpose).as("purpose"),
          sessionId: value(sessionId).as("session_id"),
          clientHash: value(clientHash).as("client_hash"),
          createdAt: value(new Date(now).toISOString()).as("created_at"),
          expiresAt: value(new Date(now + CHALLENGE_TTL_MS).toISOString()).as("expires_at"),
          usedAt: value(null).as("used_at"),
        })
        .from(sql`(SELECT 1)`)
        .where(sql`(${recent}) < ${PER_CLIENT}`),
    )
    .returning({ id: passkeyChallenges.id });
  return written[0]?.id;
}

/**
 * Spends the challenge: true once, if it was made for `purpose` (and, when adding a passkey, for
 * this session), unused and younger than 5 minutes. One UPDATE decides it.
 */
export async function spendChallenge(
  env: Env,
  challenge: string,
  purpose: Purpose,
  sessionId: string | null,
  now = Date.now(),
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return false;
  const spent = await membersDb(env)
    .update(passkeyChallenges)
    .set({ usedAt: new Date(now).toISOString() })
    .where(
      and(
        eq(passkeyChallenges.id, challenge),
        eq(passkeyChallenges.purpose, purpose),
        sessionId === null ? isNull(passkeyChallenges.sessionId) : eq(passkeyChallenges.sessionId, sessionId),
        isNull(passkeyChallenges.usedAt),
        gt(passkeyChallenges.expiresAt, new Date(now).toISOString()),
      ),
    )
    .returning({ id: passkeyChallenges.id });
  return spent.length === 1;
}
