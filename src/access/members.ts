/**
 * A business's members (docs/members.md): the public shape, a page of them, a new one under the
 * bound. Members live in the directory (`DB`), so every function here takes the environment and
 * reads `directoryOf(env)`; a staff member's provider is checked on the business's shard (`db`).
 */

import { count, eq, lt, sql } from "drizzle-orm";
import { forwardAudit } from "../audit/forward";
import { fieldsOf, recordIfChanged } from "../audit/record";
import { createDb, type Database } from "../db/client";
import { type MemberRow, members } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import { insertWhere, isUniqueViolation, loadOwned } from "../lib/rows";
import { newestFirst } from "../lists/newest-first";
import type { PageRequest } from "../lists/pagination";
import { loadProvider } from "../providers/records";
import { directoryOf } from "../shards/shards";
import type { Actor } from "../types/actor";

export type Role = MemberRow["role"];

/** Members one business may have, whatever their status. */
export const MAX_MEMBERS = 200;

/** The directory's Drizzle handle, where members live. */
export const membersDb = (env: Env): Database => createDb(directoryOf(env));

/** The public shape of a member. */
export const toMember = (row: MemberRow) => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  providerId: row.providerId,
  status: row.status,
  createdAt: row.createdAt,
  lastSignInAt: row.lastSignInAt,
});

/** The business's member with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadMember = (env: Env, businessId: string, id: string) =>
  loadOwned(membersDb(env), members, "member", businessId, id);

/** One page of the business's members, newest first, and how many there are. */
export async function memberPage(env: Env, businessId: string, page: PageRequest) {
  const { rows, total } = await newestFirst(membersDb(env), members, eq(members.businessId, businessId), page);
  return { items: rows.map(toMember), total };
}

/**
 * The provider a member of `role` is: required for staff and one of the business's providers
 * (else a 422 at `providerId`), null for the other roles.
 */
export async function providerFor(db: Database, businessId: string, role: Role, providerId: string | null | undefined) {
  if (role !== "staff") {
    if (providerId) throw fieldError("providerId", "Only a staff member is a provider; leave it out for this role.");
    return null;
  }
  if (!providerId) throw fieldError("providerId", "A staff member needs the id of the provider they are.");
  try {
    await loadProvider(db, businessId, providerId);
  } catch {
    throw fieldError("providerId", `No provider ${providerId} in this business.`);
  }
  return providerId;
}

/** A 422 naming one field. */
export const fieldError = (path: string, message: string) =>
  new ApiError("validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });

/**
 * Invites a member (status `invited` until their first sign-in). The bound on members and the
 * insert are one statement (`INSERT … SELECT … WHERE count < MAX`); an address the business has
 * a member with already is a 409 `member_exists`.
 */
export async function createMember(
  env: Env,
  db: Database,
  businessId: string,
  input: { email: string; name: string; role: Role; providerId?: string | null },
  actor: Actor,
) {
  const providerId = await providerFor(db, businessId, input.role, input.providerId);
  const now = new Date().toISOString();
  const row: MemberRow = {
    id: newId("member"),
    businessId,
    email: input.email.toLowerCase(),
    name: input.name,
    role: input.role,
    providerId,
    status: "invited",
    version: 1,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
  };
  const dir = membersDb(env);
  const held = dir.select({ n: count() }).from(members).where(eq(members.businessId, businessId));
  const insert = insertWhere(dir, members, row, lt(sql`(${held})`, MAX_MEMBERS));

  const record = recordIfChanged(dir, {
    businessId,
    actor,
    action: "member.created",
    resource: { type: "member", id: row.id },
    fields: fieldsOf({ email: row.email, name: row.name, role: row.role, providerId: row.providerId ?? undefined }),
  });
  try {
    // The record only when the member was written: in the directory's batch, then moved (audit/forward.ts).
    const [written] = await dir.batch([insert, record]);
    if (written.meta.changes === 0) {
      throw new ApiError("member_limit", `A business can have at most ${MAX_MEMBERS} members. Remove one first.`);
    }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError("member_exists", `The business has a member with the e-mail ${row.email} already.`, {
      errors: [{ path: "email", message: "Taken by another member." }],
    });
  }
  await forwardAudit(dir, db, { businessId });
  return row;
}
