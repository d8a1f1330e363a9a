import { and, asc, count, desc, fillPlaceholders, type Query, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, rootDb } from "./client";

/**
 * What a batch needs of a Drizzle prepared query (its public API): the SQL with placeholders,
 * the row mapping, and, for types only, what executing it returns.
 */
export interface PreparedRead<T> {
  getQuery(): Query;
  mapResult(response: unknown, isFromBatch?: boolean): unknown;
  execute(placeholderValues?: Record<string, unknown>): Promise<T>;
}

/** One statement of a batch: a prepared query and the values of its placeholders. */
export type BoundRead<T> = { query: PreparedRead<T>; values: Record<string, unknown> };

/** A prepared query with this request's values. */
export const bind = <T>(query: PreparedRead<T>, values: Record<string, unknown> = {}): BoundRead<T> => ({
  query,
  values,
});

type Results<T extends readonly BoundRead<unknown>[]> = {
  -readonly [K in keyof T]: T[K] extends BoundRead<infer R> ? R : never;
};

/**
 * Runs prepared reads in one D1 round trip, each answering its rows: `readBatch` over a binding,
 * or a request's own reader, which folds the key check it owes into the same batch
 * (`batchReader` in src/middleware/key-check.ts).
 */
export type ReadBatch = <const T extends readonly BoundRead<unknown>[]>(reads: T) => Promise<Results<T>>;

/**
 * Runs prepared reads in one D1 round trip, each mapped to rows as Drizzle would. A batch answers
 * rows keyed by column name, so a read's columns need distinct names (no two `id`s from a join).
 * Drizzle's own `batch` takes query builders and builds their SQL on every call; a list's fixed
 * queries are built once per isolate instead (`preparedOnce`), which the list's CPU profile asked
 * for (docs/performance.md, "Where the time goes (CPU profiles)"). Writes go through it too (the
 * calendars' write-behind, src/calendar/d1/persist.ts): a batch is one transaction, and a write
 * without `RETURNING` answers no rows.
 */
export async function readBatch<const T extends readonly BoundRead<unknown>[]>(
  d1: D1Database,
  reads: T,
  onRowsRead?: (rows: number) => void,
): Promise<Results<T>> {
  const statements = reads.map(({ query, values }) => {
    const { sql, params } = query.getQuery();
    return d1.prepare(sql).bind(...fillPlaceholders(params, values));
  });
  const results = await d1.batch(statements);
  onRowsRead?.(results.reduce((sum, result) => sum + (result.meta?.rows_read ?? 0), 0));
  return reads.map(({ query }, i) => query.mapResult(results[i], true)) as Results<T>;
}

const preparedByDb = new WeakMap<Database, Map<string, unknown>>();

/**
 * The prepared query named `name` over this Drizzle handle, built on first use and kept for the
 * isolate's life. Names come from code (a query and, for optional filters, which are present),
 * so the map stays small. A request's handle over a D1 session shares its binding's queries:
 * `build` gets the binding's handle (`rootDb`), so a query kept for the isolate never holds a
 * statement of one request's session.
 */
export function preparedOnce<P>(db: Database, name: string, build: (db: Database) => P): P {
  const root = rootDb(db);
  let byName = preparedByDb.get(root);
  if (!byName) {
    byName = new Map();
    preparedByDb.set(root, byName);
  }
  let prepared = byName.get(name) as P | undefined;
  if (prepared === undefined) {
    prepared = build(root);
    byName.set(name, prepared);
  }
  return prepared;
}

/**
 * The two reads of a list, to prepare once: a page of the rows of `table` that meet `where`, in
 * `order` (its size and offset are the placeholders `limit` and `offset`), and their total.
 */
export function pageQueries<T extends SQLiteTable>(db: Database, table: T, where: SQL | undefined, order: SQL[]) {
  return {
    page: db
      .select()
      .from(table as SQLiteTable)
      .where(where)
      .orderBy(...order)
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare() as PreparedRead<T["$inferSelect"][]>,
    total: db
      .select({ total: count() })
      .from(table as SQLiteTable)
      .where(where)
      .prepare(),
  };
}

/**
 * The two seeks of a list with cursors, to prepare once: the rows of `table` that meet `where`
 * and come after the key `(c0, c1, …)` in the list's order (newest first: `key` descending), and
 * those that come before it, read in ascending order. Each reads `limit` rows (a placeholder;
 * callers ask for one more than the page to learn whether more follow). `key` is the sort key
 * with the id last, the columns of an index that starts with the business.
 */
export function keysetQueries<T extends SQLiteTable>(
  db: Database,
  table: T,
  where: SQL | undefined,
  key: (SQLiteColumn | SQL)[],
) {
  const columns = sql.join(key, sql`, `);
  const cursor = sql.join(
    key.map((_, i) => sql.placeholder(`c${i}`)),
    sql`, `,
  );
  const seek = (compare: SQL, order: SQL[]) =>
    db
      .select()
      .from(table as SQLiteTable)
      .where(and(where, compare))
      .orderBy(...order)
      .limit(sql.placeholder("limit"))
      .prepare() as PreparedRead<T["$inferSelect"][]>;
  return {
    after: seek(
      sql`(${columns}) < (${cursor})`,
      key.map((column) => desc(column)),
    ),
    before: seek(
      sql`(${columns}) > (${cursor})`,
      key.map((column) => asc(column)),
    ),
  };
}
