/** The nightly pruning of members' sign-in links, passkey challenges and sessions that no longer count. */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pruneSignIns } from "../../src/access/member-sessions";
import { memberSessions, passkeyChallenges, signInLinks } from "../../src/db/schema";
import { memberOf } from "../support/access";
import { createAccount, directoryDb } from "../support/api";
import { asMember, signIn } from "../support/members";
import { officeJson } from "../support/passkeys";

describe("pruning sign-ins", () => {
  it("drops links older than a day and sessions over (idle or past 30 days); a live session stays", async () => {
    const { apiKey } = await createAccount();
    const email = `prune.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const member = await memberOf(apiKey, { role: "owner", email });
    const idle = await signIn(email);
    const live = await signIn(email);
    const [idleRow] = await directoryDb()
      .select()
      .from(memberSessions)
      .where(eq(memberSessions.memberId, member.id))
      .orderBy(memberSessions.createdAt);
    await directoryDb()
      .update(memberSessions)
      .set({ lastSeenAt: "2000-01-01T00:00:00.000Z" })
      .where(eq(memberSessions.id, idleRow?.id ?? ""));
    await directoryDb().update(signInLinks).set({ createdAt: "2000-01-01T00:00:00.000Z" });
    const pruned = await pruneSignIns(env);
    expect(pruned.sessions).toBeGreaterThanOrEqual(1);
    expect(pruned.links).toBeGreaterThanOrEqual(2);
    const left = await directoryDb().select().from(memberSessions).where(eq(memberSessions.memberId, member.id));
    expect(left).toHaveLength(1);
    const statuses = [await asMember("GET", "/members", idle), await asMember("GET", "/members", live)].map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it("drops passkey challenges older than a day; a fresh one stays", async () => {
    const old = (await (await officeJson("/office/sign-in/passkey/options", {})).json()) as { challenge: string };
    const fresh = (await (await officeJson("/office/sign-in/passkey/options", {})).json()) as { challenge: string };
    await directoryDb()
      .update(passkeyChallenges)
      .set({ createdAt: "2000-01-01T00:00:00.000Z" })
      .where(eq(passkeyChallenges.id, old.challenge));
    expect((await pruneSignIns(env)).challenges).toBeGreaterThanOrEqual(1);
    const left = await directoryDb().select({ id: passkeyChallenges.id }).from(passkeyChallenges);
    expect(left.map((row) => row.id)).toContain(fresh.challenge);
    expect(left.map((row) => row.id)).not.toContain(old.challenge);
  });
});
