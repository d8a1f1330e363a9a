/**
 * A business's rows, table by table, as a relocation copies them to the new shard and deletes them from
 * the old one: a page at a time, by rowid, each page one D1 batch, so a relocation resumes at the page
 * after the last one it recorded and running a page twice changes nothing.
 *
 * A page is read in rowid order from its cursor, not through the table's business index: those
 * indexes lead with the business and go on with other columns, so reading them in rowid order
 * would sort every row of the business for every page (a relocation quadratic in its rows). In rowid
 * order the pages of one table read each of its rows at most once in all: a relocation costs the size
 * of the tables it reads, whatever share of them the business has.
 */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../db/schema";

/** Rows per page: one statement each in a batch (a booking's row binds about 30 values, under D1's 100). */
export const PAGE_ROWS = 50;
/** Rows one delete statement removes. */
const DELETE_ROWS = 500;

/** A tenant table as the relocation sees it. */
type RelocatedTable = { name: string; columns: string[]; key: string[]; owned: string };

const byBusiness = "business_id = ?";

function relocated(table: SQLiteTable, owned = byBusiness): RelocatedTable {
  const config = getTableConfig(table);
  const columns = config.columns.map((column) => column.name);
  const key =
    config.primaryKeys[0]?.columns.map((column) => column.name) ??
    config.columns.filter((column) => column.primary).map((column) => column.name);
  return { name: config.name, columns, key, owned };
}

/**
 * Every table with a business's rows, parents before children (D1 enforces the foreign keys).
 * The list counts come last: the rows copied before them count themselves in (triggers), and the
 * copy of the counts then sets each to the old shard's number. The customers' search index is
 * not copied: the customers' triggers write it.
 */
export const RELOCATED_TABLES: readonly RelocatedTable[] = [
  relocated(schema.businesses, "id = ?"),
  relocated(schema.apiKeys),
  relocated(schema.customers),
  relocated(schema.services),
  relocated(schema.providers),
  relocated(schema.resources),
  relocated(schema.serviceProviders),
  relocated(schema.serviceResources),
  relocated(schema.series),
  relocated(schema.bookings),
  relocated(schema.bookingProviders),
  relocated(schema.bookingResources),
  relocated(schema.bookingConflicts),
  relocated(schema.holds),
  relocated(schema.waitlistEntries),
  relocated(schema.calendarFeeds),
  relocated(schema.messages),
  relocated(schema.idempotencyKeys),
  relocated(schema.webhookEndpoints),
  relocated(schema.webhookEvents),
  relocated(schema.webhookDeliveries),
  relocated(
    schema.webhookAttempts,
    "EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = webhook_attempts.delivery_id AND d.business_id = ?)",
  ),
  relocated(schema.auditEvents),
  relocated(schema.listCounts),
];

/**
 * The tables the old shard's rows are deleted from, children first. The business's row and its
 * keys stay as its forwarding address (src/shards/object-shard.ts, src/middleware/auth.ts); the
 * list counts go last, after the deletes that count themselves out of them.
 */
export const DELETED_TABLES: readonly RelocatedTable[] = [
  ...RELOCATED_TABLES.slice(2, -1).reverse(),
  RELOCATED_TABLES[RELOCATED_TABLES.length - 1] as RelocatedTable,
];

/** Changes a business's row gets on its way: on the new shard it is arriving until the switch. */
export type RowChanges = Record<string, unknown>;

/**
 * Copies the page of `table`'s rows of `businessId` after rowid `after` from `from` to `to`
 * (upserts: a row copied again is overwritten with the same values, its triggers netting zero).
 * Answers the rowid to go on after, or null when the table is done.
 */
export async function copyPage(
  from: D1Database,
  to: D1Database,
  table: RelocatedTable,
  businessId: string,
  after: number,
  changes: RowChanges = {},
): Promise<number | null> {
  const { results } = await from
    .prepare(
      `SELECT rowid AS moved_rowid, ${table.columns.join(", ")} FROM ${table.name} NOT INDEXED
       WHERE rowid > ? AND ${table.owned} ORDER BY rowid LIMIT ${PAGE_ROWS}`,
    )
    .bind(after, businessId)
    .all<Record<string, unknown>>();
  if (results.length === 0) return null;
  const updates = table.columns.filter((column) => !table.key.includes(column));
  const onConflict =
    updates.length === 0
      ? "DO NOTHING"
      : `DO UPDATE SET ${updates.map((column) => `${column} = excluded.${column}`).join(", ")}`;
  const insert = `INSERT INTO ${table.name} (${table.columns.join(", ")}) VALUES (${table.columns.map(() => "?").join(", ")})
    ON CONFLICT (${table.key.join(", ")}) ${onConflict}`;
  await to.batch(
    results.map((row) =>
      to.prepare(insert).bind(...table.columns.map((column) => (column in changes ? changes[column] : row[column]))),
    ),
  );
  const last = results[results.length - 1]?.moved_rowid as number;
  return results.length < PAGE_ROWS ? null : last;
}

/**
 * Deletes the next rows of `table` of `businessId` after rowid `after` (up to 500, in rowid order
 * as `copyPage` reads); answers the rowid to go on after, or null when the table is done.
 */
export async function deletePage(
  db: D1Database,
  table: RelocatedTable,
  businessId: string,
  after: number,
): Promise<number | null> {
  const { results } = await db
    .prepare(
      `DELETE FROM ${table.name} WHERE rowid IN (SELECT rowid FROM ${table.name} NOT INDEXED
       WHERE rowid > ? AND ${table.owned} ORDER BY rowid LIMIT ${DELETE_ROWS}) RETURNING rowid AS moved_rowid`,
    )
    .bind(after, businessId)
    .all<{ moved_rowid: number }>();
  if (results.length < DELETE_ROWS) return null;
  return Math.max(...results.map((row) => row.moved_rowid));
}
