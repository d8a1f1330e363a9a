/**
 * A page of a table's rows newest first (ids sort by creation time) with their total, in one D1
 * batch: the lists of catalog rows, webhooks and deliveries.
 */
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { offsetOf, type PageRequest } from "./pagination";

/** A tenant-owned table: each row has an `id` and its owner's `businessId`. */
type OwnedTable = SQLiteTable & { id: SQLiteColumn; businessId: SQLiteColumn };

/** One page of the business's active (or inactive) catalog rows, newest first, with their total. */
export const activeNewestFirst = <T extends OwnedTable & { active: SQLiteColumn }>(
  db: Database,
  table: T,
  businessId: string,
  { active, ...page }: PageRequest & { active: boolean },
) => newestFirst(db, table, and(eq(table.businessId, businessId), eq(table.active, active)), page);

/**
 * One page of the rows of `table` that meet `where`, newest first (ids sort by creation time),
 * and how many there are, in one D1 batch built per request. The lists that many requests read
 * are prepared once per isolate instead (src/db/prepared.ts).
 */
export async function newestFirst<T extends SQLiteTable & { id: SQLiteColumn }>(
  db: Database,
  table: T,
  where: SQL | undefined,
  { page, limit }: PageRequest,
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const [rows, [totals]] = await db.batch([
    db
      .select()
      .from(table as SQLiteTable)
      .where(where)
      .orderBy(desc(table.id))
      .limit(limit)
      .offset(offsetOf({ page, limit })),
    db
      .select({ total: count() })
      .from(table as SQLiteTable)
      .where(where),
  ]);
  return { rows: rows as T["$inferSelect"][], total: totals?.total ?? 0 };
}
