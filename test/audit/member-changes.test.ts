/**
 * Member changes in the audit: members live in the directory, so a change's record is written in
 * the directory's own batch and moved to the business's shard right after; one a reset left behind
 * is moved by the nightly pass, once. Field names only: never the member's e-mail or name.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../src/db/schema";
import { nightly } from "../../src/maintenance";
import { memberOf } from "../support/access";
import { api, createAccount, directoryDb, json } from "../support/api";
import { asMember, signIn } from "../support/members";

const recordsOf = async (key: string, resourceId: string) =>
  (await json(await api("GET", `/audit-events?resourceId=${resourceId}`, { key }))).data as {
    action: string;
    actor: { type: string; id: string };
    fields: string[];
  }[];

describe("member changes in the audit", () => {
  it("invited, its role changed by a signed-in owner, removed: one record each, no name or e-mail in any", async () => {
    const { apiKey } = await createAccount();
    const ownerEmail = `owner.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const owner = await memberOf(apiKey, { role: "owner", email: ownerEmail });
    const cookie = await signIn(ownerEmail);
    const member = await memberOf(apiKey, { role: "frontdesk", email: "grace.hopper@example.com" });
    const changed = await asMember("PATCH", `/members/${member.id}`, cookie, { role: "owner" });
    expect(changed.status).toBe(200);
    // The last active owner stays (the other is only invited): a refused change leaves no record.
    const refused = await asMember("PATCH", `/members/${owner.id}`, cookie, { status: "disabled" });
    expect(refused.status).toBe(409);
    expect((await recordsOf(apiKey, owner.id)).map((r) => r.action)).toEqual(["member.created"]);
    const last = await api("DELETE", `/members/${member.id}`, { key: apiKey });
    expect(last.status).toBe(204);
    const records = await recordsOf(apiKey, member.id);
    expect(records.map((r) => [r.action, r.actor.type, r.fields])).toEqual([
      ["member.removed", "apiKey", []],
      ["member.role_changed", "member", ["role"]],
      ["member.created", "apiKey", ["email", "name", "role"]],
    ]);
    expect(records[1]?.actor.id).toBe(owner.id);
    const all = JSON.stringify(await json(await api("GET", "/audit-events?limit=100", { key: apiKey })));
    expect(all).not.toContain("grace.hopper@example.com");
    expect(all).not.toContain("Grace Hopper");
    // Nothing is left in the directory once moved.
    const left = await directoryDb().select().from(auditEvents);
    expect(left.filter((r) => r.resourceId === member.id)).toEqual([]);
  });

  it("a record a reset left in the directory is moved by the nightly pass, once", async () => {
    const { apiKey, businessId } = await createAccount();
    const member = await memberOf(apiKey, { role: "frontdesk" });
    const stranded = {
      id: `aud_${"0".repeat(10)}${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
      businessId,
      at: new Date().toISOString(),
      actorType: "system" as const,
      actorId: "system",
      action: "member.updated",
      resourceType: "member",
      resourceId: member.id,
      fields: ["name"],
    };
    await directoryDb().insert(auditEvents).values(stranded);
    expect((await recordsOf(apiKey, member.id)).map((r) => r.action)).toEqual(["member.created"]);
    await nightly(env);
    await nightly(env);
    expect((await recordsOf(apiKey, member.id)).map((r) => r.action).sort()).toEqual([
      "member.created",
      "member.updated",
    ]);
  });
});
