/**
 * Members' sessions and sign-in links kept in the directory: ending every session of one member
 * (disabled, removed, or an owner's "sign out everywhere"), and the nightly pruning of what no
 * longer counts.
 */
import { eq, lt, or } from "drizzle-orm";
import { memberSessions, passkeyChallenges, signInLinks } from "../db/schema";
import { membersDb } from "./members";
import { IDLE_MS } from "./sessions";

/** Ends every session of the member: their next request is signed out. */
export async function endSessionsOf(env: Env, memberId: string): Promise<void> {
  await membersDb(env).delete(memberSessions).where(eq(memberSessions.memberId, memberId));
}

/** Sign-in links and passkey challenges are kept a day: long past their minutes and the bounds' window. */
const LINKS_KEPT_MS = 86_400_000;

/**
 * Deletes sign-in links and passkey challenges older than a day and sessions that are over;
 * answers how many of each.
 */
export async function pruneSignIns(env: Env, now = Date.now()) {
  const dir = membersDb(env);
  const at = new Date(now).toISOString();
  const old = new Date(now - LINKS_KEPT_MS).toISOString();
  const [links, sessions, challenges] = await dir.batch([
    dir.delete(signInLinks).where(lt(signInLinks.createdAt, old)),
    dir
      .delete(memberSessions)
      .where(
        or(lt(memberSessions.expiresAt, at), lt(memberSessions.lastSeenAt, new Date(now - IDLE_MS).toISOString())),
      ),
    dir.delete(passkeyChallenges).where(lt(passkeyChallenges.createdAt, old)),
  ]);
  return { links: links.meta.changes, sessions: sessions.meta.changes, challenges: challenges.meta.changes };
}
