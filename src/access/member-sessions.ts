/**
 * Members' sessions, kept in the directory by the SHA-256 of the cookie's value: ending them all
 * for one member (disabled, removed, or an owner's "sign out everywhere").
 */
import { eq } from "drizzle-orm";
import { memberSessions } from "../db/schema";
import { membersDb } from "./members";

/** Ends every session of the member: their next request is signed out. */
export async function endSessionsOf(env: Env, memberId: string): Promise<void> {
  await membersDb(env).delete(memberSessions).where(eq(memberSessions.memberId, memberId));
}
