/**
 * Members' sessions (docs/members.md, "Sessions"): a random cookie value, stored only as its
 * SHA-256, good for 12 hours after its last use and 30 days at most, ended by sign-out, by the
 * member's disabling or removal, and by an owner's "sign out everywhere".
 */
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { preparedOnce } from "../db/prepared";
import { businesses, memberSessions, members } from "../db/schema";
import { base64url, sha256Hex } from "../lib/crypto";
import { membersDb } from "./members";

/** A session unused this long is over. */
export const IDLE_MS = 12 * 3_600_000;
/** No session lasts longer than this from its sign-in. */
export const ABSOLUTE_MS = 30 * 86_400_000;
/** A session's last use is written at most this often (a read a minute, not one per request). */
const TOUCH_MS = 60_000;

/**
 * Starts a session for the member, if they are not disabled: an invited member becomes active
 * and the sign-in is recorded. Answers the cookie's value (never stored), or undefined.
 */
export async function startSession(env: Env, memberId: string, now = Date.now()): Promise<string | undefined> {
  const at = new Date(now).toISOString();
  const dir = membersDb(env);
  const [member] = await dir
    .update(members)
    .set({ status: "active", lastSignInAt: at, version: sql`${members.version} + 1`, updatedAt: at })
    .where(and(eq(members.id, memberId), sql`${members.status} <> 'disabled'`))
    .returning({ id: members.id });
  if (!member) return undefined;
  const value = base64url(crypto.getRandomValues(new Uint8Array(32)));
  await dir.insert(memberSessions).values({
    id: await sha256Hex(value),
    memberId,
    createdAt: at,
    lastSeenAt: at,
    expiresAt: new Date(now + ABSOLUTE_MS).toISOString(),
  });
  return value;
}

/** The session read, built once per isolate (every signed-in request makes it). */
const liveSession = (dir: Database) =>
  preparedOnce(dir, "member-session", (db) =>
    db
      .select({
        sessionId: memberSessions.id,
        lastSeenAt: memberSessions.lastSeenAt,
        memberId: members.id,
        businessId: members.businessId,
        name: members.name,
        email: members.email,
        role: members.role,
        providerId: members.providerId,
        shard: businesses.shard,
      })
      .from(memberSessions)
      .innerJoin(members, eq(members.id, memberSessions.memberId))
      .innerJoin(businesses, eq(businesses.id, members.businessId))
      .where(
        and(
          eq(memberSessions.id, sql.placeholder("id")),
          eq(members.status, "active"),
          gt(memberSessions.expiresAt, sql.placeholder("now")),
          gt(memberSessions.lastSeenAt, sql.placeholder("idleSince")),
        ),
      )
      .limit(1)
      .prepare(),
  );

/** The member and business behind a live session: the session read's row, but its last use. */
export type SessionMember = Omit<Awaited<ReturnType<ReturnType<typeof liveSession>["execute"]>>[number], "lastSeenAt">;

/**
 * The live session with this cookie value: its member active, not idle for 12 hours, not past
 * 30 days. One read; its last use is moved on at most once a minute.
 */
export async function memberSessionOf(env: Env, value: string, now = Date.now()): Promise<SessionMember | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return undefined;
  const id = await sha256Hex(value);
  const dir = membersDb(env);
  const [row] = await liveSession(dir).execute({
    id,
    now: new Date(now).toISOString(),
    idleSince: new Date(now - IDLE_MS).toISOString(),
  });
  if (!row) return undefined;
  if (Date.parse(row.lastSeenAt) < now - TOUCH_MS) {
    await dir
      .update(memberSessions)
      .set({ lastSeenAt: new Date(now).toISOString() })
      .where(and(eq(memberSessions.id, id), lt(memberSessions.lastSeenAt, new Date(now).toISOString())));
  }
  const { lastSeenAt: _, ...member } = row;
  return member;
}

/** Ends the session with this cookie value (sign-out); an unknown value changes nothing. */
export async function endSession(env: Env, value: string): Promise<void> {
  await membersDb(env)
    .delete(memberSessions)
    .where(eq(memberSessions.id, await sha256Hex(value)));
}
