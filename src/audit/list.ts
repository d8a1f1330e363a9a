/**
 * The audit read back: a business's records newest first, optionally of one resource or one
 * actor, paged by number or by cursor. Each filter has its index led by the business, so another
 * business's resource id finds nothing, and every page is one index seek plus its count.
 */
import { and, asc, count, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { auditEvents } from "../db/schema";
import { type CursorRequest, type ListPage, pageAt, positionOf } from "../lists/cursor";
import { offsetOf } from "../lists/pagination";

type AuditRow = typeof auditEvents.$inferSelect;

/** The public shape of a record. */
export const toAuditEvent = (row: AuditRow) => ({
  id: row.id,
  at: row.at,
  actor: { type: row.actorType, id: row.actorId },
  action: row.action,
  resource: { type: row.resourceType, id: row.resourceId },
  fields: row.fields,
});

/** A cursor of this list is the record's id. */
const cursorKey = [/^aud_[0-9a-z]{26}$/];

/** A page of the business's records, newest first, with the filters asked for. */
export async function auditPage(
  db: Database,
  businessId: string,
  query: CursorRequest & { resourceId?: string; actorId?: string },
): Promise<ListPage<ReturnType<typeof toAuditEvent>>> {
  const { page, limit, resourceId, actorId } = query;
  const position = positionOf(query, cursorKey);
  const filters: SQL[] = [eq(auditEvents.businessId, businessId)];
  if (resourceId !== undefined) filters.push(eq(auditEvents.resourceId, resourceId));
  if (actorId !== undefined) filters.push(eq(auditEvents.actorId, actorId));
  const where = and(...filters);
  const select = db.select().from(auditEvents);
  const rowsRead =
    position.kind === "page"
      ? select
          .where(where)
          .orderBy(desc(auditEvents.id))
          .limit(limit)
          .offset(offsetOf({ page, limit }, "resourceId, actorId or a cursor (after)"))
      : position.kind === "after"
        ? select
            .where(and(where, lt(auditEvents.id, position.key[0] as string)))
            .orderBy(desc(auditEvents.id))
            .limit(limit + 1)
        : select
            .where(and(where, gt(auditEvents.id, position.key[0] as string)))
            .orderBy(asc(auditEvents.id))
            .limit(limit + 1);
  const [rows, [totals]] = await db.batch([rowsRead, db.select({ total: count() }).from(auditEvents).where(where)]);
  const total = totals?.total ?? 0;
  const { rows: inOrder, hasNext, hasPrev } = pageAt(rows, position, { page, limit }, total);
  return { items: inOrder.map(toAuditEvent), hasNext, hasPrev, position, total, keyOf: (item) => [item.id] };
}
