/**
 * Changing and removing a member under the rule that a business keeps at least one active owner
 * (409 `last_owner`). The rule is part of the write's own statement — the count of the other
 * active owners is a subquery of its `WHERE` — so two owners demoting each other at once cannot
 * both succeed: the directory runs one write at a time, and the second sees the first's result.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { forwardAudit } from "../audit/forward";
import { fieldsOf, recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { type MemberRow, members, passkeys } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { assertIfMatch, etagOf } from "../lib/etag";
import type { Actor } from "../types/actor";
import { endSessionsOf } from "./member-sessions";
import { loadMember, membersDb, providerFor, type Role, toMember } from "./members";

/** What a PATCH may change. */
export type MemberPatch = { name?: string; role?: Role; status?: "active" | "disabled"; providerId?: string | null };

const lastOwner = () =>
  new ApiError("last_owner", "A business keeps at least one active owner: make another member an active owner first.");

/**
 * True unless the row is the business's only active owner and `staysOwner` (SQL) is false after
 * the write. Evaluated by the write's statement itself.
 */
function keepsAnOwner(businessId: string, staysOwner: SQL): SQL {
  const activeOwners = sql`(SELECT count(*) FROM members AS o WHERE o.business_id = ${businessId} AND o.role = 'owner' AND o.status = 'active')`;
  return sql`NOT (${members.role} = 'owner' AND ${members.status} = 'active' AND NOT (${staysOwner}) AND ${activeOwners} <= 1)`;
}

/**
 * Applies `patch` to the member. A disabled member made `active` again is `invited` until they
 * sign in if they never have. Disabling ends their sessions at once. Answers the member and its
 * version for the ETag.
 */
export async function updateMember(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  patch: MemberPatch,
  ifMatch: string[] | undefined,
  actor: Actor,
) {
  const row = await loadMember(env, businessId, id);
  if (ifMatch !== undefined) assertIfMatch(ifMatch, etagOf(row.version));
  const role = patch.role ?? row.role;
  // A member leaving the staff role stops being a provider unless the patch says otherwise.
  const asked = patch.providerId !== undefined ? patch.providerId : role === "staff" ? row.providerId : null;
  const providerId =
    role === row.role && asked === row.providerId ? row.providerId : await providerFor(db, businessId, role, asked);
  // `active` asked of a member who never signed in leaves them invited; the statement decides it.
  const status =
    patch.status === undefined
      ? sql`${members.status}`
      : patch.status === "disabled"
        ? sql`'disabled'`
        : sql`CASE WHEN ${members.lastSignInAt} IS NULL THEN 'invited' ELSE 'active' END`;
  const staysOwner = sql`${role} = 'owner' AND (${status}) = 'active'`;
  const dir = membersDb(env);
  const [[updated]] = await dir.batch([
    dir
      .update(members)
      .set({
        name: patch.name ?? row.name,
        role,
        providerId,
        status: sql`${status}`,
        version: sql`${members.version} + 1`,
        updatedAt: new Date().toISOString(),
      })
      .where(
        and(
          eq(members.businessId, businessId),
          eq(members.id, id),
          ifMatch === undefined ? undefined : eq(members.version, row.version),
          keepsAnOwner(businessId, staysOwner),
        ),
      )
      .returning(),
    // Written only when the member was: in the directory's batch, then moved to the shard (audit/forward.ts).
    recordIfChanged(dir, {
      businessId,
      actor,
      action: patch.role !== undefined && patch.role !== row.role ? "member.role_changed" : "member.updated",
      resource: { type: "member", id },
      fields: fieldsOf(patch),
    }),
  ]);
  if (!updated) throw await whyNothingChanged(env, businessId, id, ifMatch, row);
  await forwardAudit(dir, db, { businessId });
  if (updated.status === "disabled") await endSessionsOf(env, updated.id);
  return { member: toMember(updated), version: updated.version };
}

/** Removes the member, ends their sessions and drops their passkeys; never the last active owner. */
export async function removeMember(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  actor: Actor,
): Promise<void> {
  const row = await loadMember(env, businessId, id);
  const dir = membersDb(env);
  const [removed] = await dir.batch([
    dir
      .delete(members)
      .where(and(eq(members.businessId, businessId), eq(members.id, id), keepsAnOwner(businessId, sql`0`)))
      .returning({ id: members.id }),
    recordIfChanged(dir, { businessId, actor, action: "member.removed", resource: { type: "member", id } }),
  ]);
  if (removed.length === 0) throw await whyNothingChanged(env, businessId, id, undefined, row);
  await forwardAudit(dir, db, { businessId });
  await endSessionsOf(env, row.id);
  await membersDb(env).delete(passkeys).where(eq(passkeys.memberId, row.id));
}

/** A write that changed nothing: the member is gone (404), changed under If-Match (412), or the last owner (409). */
async function whyNothingChanged(
  env: Env,
  businessId: string,
  id: string,
  ifMatch: string[] | undefined,
  read: MemberRow,
) {
  const now = await loadMember(env, businessId, id).catch((error: unknown) => error);
  if (now instanceof ApiError) return now;
  if (ifMatch !== undefined && (now as MemberRow).version !== read.version) {
    return new ApiError("precondition_failed", "The member changed while this request ran; fetch it again.");
  }
  return lastOwner();
}
