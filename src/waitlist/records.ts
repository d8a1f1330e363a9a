/** Waitlist entries: where each is kept (D1 knows the service), and the entry as its calendar has it. */
import { and, count, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { type AuditEntry, recordIfChanged } from "../audit/record";
import { serviceCalendarOf } from "../calendar";
import type { Database } from "../db/client";
import { holds, services, waitlistEntries } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { insertWhere, loadOwned } from "../lib/rows";
import { type CursorRequest, type ListPage, pageAt, positionOf } from "../lists/cursor";
import { offsetOf } from "../lists/pagination";
import type { Actor } from "../types/actor";
import type { WaitlistEntry, WaitlistFrom, WaitlistStatus } from "../types/waitlist";

/** The most entries one API key may queue in 24 hours. */
export const MAX_PER_KEY_PER_DAY = 200;

/** The business's entry, as its service's calendar has it now; a 404 that does not tell other tenants' ids apart. */
export async function loadWaitlistEntry(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
): Promise<{ serviceId: string; entry: WaitlistEntry }> {
  const row = await loadOwned(db, waitlistEntries, "waitlist entry", businessId, id);
  const entry = await serviceCalendarOf(env, businessId, row.serviceId).getWaitlistEntry(id);
  if (!entry) throw new ApiError("not_found", `No waitlist entry ${id}.`);
  return { serviceId: row.serviceId, entry };
}

/** An entry's D1 row: its business, its service (whose calendar keeps it) and the key that queued it. */
export type EntryRow = { id: string; businessId: string; serviceId: string; apiKeyId: string; createdAt: string };

/**
 * Stores the entry's row if its API key queued fewer than MAX_PER_KEY_PER_DAY entries in the 24
 * hours before it, counted and inserted in one statement, so that concurrent joins cannot pass
 * the bound together (a count, then an insert, let 40 at once through at 180). The join's audit
 * `record` is written in the same batch, only if the row was. Answers whether the row was stored.
 */
export async function storeWithinKeyBound(db: Database, row: EntryRow, record: AuditEntry): Promise<boolean> {
  const since = new Date(Date.parse(row.createdAt) - 86_400_000).toISOString();
  const queued = db
    .select({ n: count() })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.apiKeyId, row.apiKeyId), gt(waitlistEntries.createdAt, since)));
  const [result] = await db.batch([
    insertWhere(db, waitlistEntries, row, lt(sql`(${queued})`, MAX_PER_KEY_PER_DAY)),
    recordIfChanged(db, record),
  ]);
  return result.meta.changes > 0;
}

/** An entry's cursor key: its id (queue order). */
const cursorKey = [/^wtl_[0-9a-z]{26}$/];

/**
 * A page of the entries of the business's service, in queue order, by page number or by cursor
 * (a 422 at `serviceId` when it has no such service): one read of its calendar.
 */
export async function listWaitlist(
  env: Env,
  db: Database,
  businessId: string,
  query: CursorRequest & { serviceId: string; status?: WaitlistStatus },
): Promise<ListPage<WaitlistEntry>> {
  const { serviceId, status, page, limit } = query;
  const position = positionOf(query, cursorKey);
  const from: WaitlistFrom =
    position.kind === "page"
      ? { kind: "offset", offset: offsetOf({ page, limit }, "status or a cursor (after)") }
      : { kind: position.kind, id: position.key[0] as string };
  const [owned] = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.id, serviceId)))
    .limit(1);
  if (!owned) {
    throw new ApiError("validation_failed", `No service ${serviceId}.`, {
      errors: [{ path: "serviceId", message: "No such service." }],
    });
  }
  const { entries, total } = await serviceCalendarOf(env, businessId, serviceId).listWaitlist(status, from, limit);
  const { rows, hasNext, hasPrev } = pageAt(entries, position, { page, limit }, total);
  return { items: rows, hasNext, hasPrev, position, total, keyOf: (entry) => [entry.id] };
}

/**
 * Takes the business's entry off its waitlist; an offered hold is released by the calendar, and
 * D1 learns the hold ended (as it does for `DELETE /holds/{id}`), so nothing counts it as live.
 * The calendar keeps the `waitlist.left` record by `actor` in the transaction that takes the entry
 * off and writes it (its alarm does after a reset); a DELETE sent again records nothing more.
 */
export async function leaveWaitlist(env: Env, db: Database, businessId: string, id: string, actor: Actor) {
  const { serviceId } = await loadOwned(db, waitlistEntries, "waitlist entry", businessId, id);
  // Null once pruned (30 days after its slot ended): it is off the waitlist either way. An entry
  // already left comes back as it was, its hold id kept, so a DELETE sent again finishes D1's part.
  const left = await serviceCalendarOf(env, businessId, serviceId).leaveWaitlist(id, { businessId, actor });
  if (left?.status !== "CANCELLED" || !left.holdId) return;
  await db
    .update(holds)
    .set({ endedAt: new Date().toISOString() })
    .where(and(eq(holds.businessId, businessId), eq(holds.id, left.holdId), isNull(holds.endedAt)));
}
