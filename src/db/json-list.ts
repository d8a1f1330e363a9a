/**
 * Lists whose length the client chooses, bound as one parameter. D1 binds at most 100 values per
 * statement (SQLite's `too many SQL variables` beyond), so a statement never takes one parameter
 * per element: the list travels as a JSON array and `json_each` reads it back as rows, whatever
 * its length (docs/operations.md, "D1's limits").
 */
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `column IN (the values)`, with the values as one bound JSON array. */
export const inList = (column: SQLiteColumn, values: readonly string[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** The values as rows of one column, `value`, of the table `alias` (for a `FROM` or an `INSERT … SELECT`). */
export const listRows = (values: readonly string[], alias = "j"): SQL =>
  sql`json_each(${JSON.stringify(values)}) AS ${sql.identifier(alias)}`;
