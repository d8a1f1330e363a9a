/**
 * Reading and writing rows the way every resource does: a business's row by id (a 404 for another
 * tenant's id as for a missing one), the If-Match compare-and-set of an edit, and a UNIQUE
 * violation told apart. A page of rows is src/lists/newest-first.ts's.
 */
import { and, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { businesses } from "../db/schema";
import { ApiError } from "./api-error";
import { assertIfMatch, etagOf } from "./etag";

/** A tenant-owned table: each row has an `id` and its owner's `businessId`. */
type OwnedTable = SQLiteTable & { id: SQLiteColumn; businessId: SQLiteColumn };

/**
 * The business's row of `table` with this id that meets the further conditions (such as "not
 * erased"), or a 404 `No <noun> <id>.` that does not tell other tenants' ids apart.
 */
export async function loadOwned<T extends OwnedTable>(
  db: Database,
  table: T,
  noun: string,
  businessId: string,
  id: string,
  ...conditions: SQL[]
): Promise<T["$inferSelect"]> {
  const [row] = await db
    .select()
    .from(table as SQLiteTable)
    .where(and(eq(table.businessId, businessId), eq(table.id, id), ...conditions))
    .limit(1);
  if (!row) throw new ApiError("not_found", `No ${noun} ${id}.`);
  return row as T["$inferSelect"];
}

/** The columns a new catalog row (a provider, a resource) starts with: its id, version 1, timestamps. */
export function firstVersion(id: string) {
  const now = new Date().toISOString();
  return { id, version: 1, createdAt: now, updatedAt: now };
}

/**
 * What makes an edit held to `If-Match` a compare-and-set: throws 412 unless the tags name the
 * ETag of `marker` as read, and answers the condition "the row still has that marker" for the
 * write. Without If-Match there is nothing to hold to: undefined, the edit applies as it finds
 * the row.
 */
export function ifMatchCondition(
  ifMatch: string[] | undefined,
  column: SQLiteColumn,
  marker: string | number,
): SQL | undefined {
  if (ifMatch === undefined) return undefined;
  assertIfMatch(ifMatch, etagOf(marker));
  return eq(column, marker);
}

/**
 * Why an edit of the business's row wrote nothing: under If-Match the row changed between the
 * check and the write (412); otherwise there is no such row (404).
 */
export function nothingWritten(noun: string, id: string, ifMatch: string[] | undefined): ApiError {
  if (ifMatch === undefined) return new ApiError("not_found", `No ${noun} ${id}.`);
  return new ApiError("precondition_failed", `The ${noun} changed while this request ran; fetch it again.`);
}

/** Whether a D1 error is a UNIQUE constraint failure (Drizzle wraps the driver's error as `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("UNIQUE constraint failed")) return true;
  }
  return false;
}

/**
 * `INSERT INTO table SELECT <row's values> FROM businesses WHERE <the row's business> AND
 * <condition>`: the row is written only while `condition` holds, checked by the insert's own
 * statement — a bound a concurrent burst cannot pass (`(SELECT count(*) …) < MAX`), or a record
 * that follows only a change (`changes() > 0`). `row` names every column of the table, in any
 * order; JSON columns are written as their text. `meta.changes` is 0 when the condition failed.
 */
export function insertWhere<T extends OwnedTable>(
  db: Database,
  table: T,
  row: Record<string, unknown> & { businessId: string },
  condition: SQL,
) {
  const selection = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = row[key];
      if (key === "businessId") return [key, businesses.id];
      const text = value !== null && typeof value === "object" ? JSON.stringify(value) : (value ?? null);
      return [key, sql`${text}`.as(column.name)];
    }),
  );
  return db.insert(table).select(
    db
      .select(selection)
      .from(businesses)
      .where(and(eq(businesses.id, row.businessId), condition)) as never,
  );
}
