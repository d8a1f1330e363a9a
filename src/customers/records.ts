/** Customers' rows: one by id, a new one, a page of them, and the public shape. */

import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { fieldsOf, recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { bind, keysetQueries, pageQueries, preparedOnce, type ReadBatch } from "../db/prepared";
import { type CustomerRow, customers } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { newId } from "../lib/ids";
import { loadOwned } from "../lib/rows";
import { keptTotal } from "../lists/counts";
import { type CursorRequest, type ListPage, pageAt, positionOf } from "../lists/cursor";
import { offsetOf } from "../lists/pagination";
import type { Actor } from "../types/actor";

/** The business's customer with this id, or a 404 that does not tell other tenants' ids (or erased people) apart. */
export const loadCustomer = (db: Database, businessId: string, id: string): Promise<CustomerRow> =>
  loadOwned(db, customers, "customer", businessId, id, isNull(customers.erasedAt));

/** The public shape of a stored customer. */
export function toCustomer(row: CustomerRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The query for the id of the business's customer with this e-mail (case-insensitively), to run in a batch. */
export const customerIdByEmail = (db: Database, businessId: string, email: string) =>
  db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.emailNormalized, email.toLowerCase())))
    .limit(1);

/** Adds a customer; a 409 `customer_exists` when the business has one with this e-mail (case-insensitively). */
export async function addCustomer(
  db: Database,
  businessId: string,
  { name, email, phone }: { name: string; email: string; phone?: string },
  actor: Actor,
) {
  const now = new Date().toISOString();
  const id = newId("customer");
  const insert = db
    .insert(customers)
    .values({
      id,
      businessId,
      name,
      email,
      emailNormalized: email.toLowerCase(),
      nameNormalized: name.toLowerCase(),
      phone: phone ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  // Field names only: the audit never holds a customer's name, e-mail or phone.
  const fields = fieldsOf({ name, email, phone });
  const audit = { businessId, actor, action: "customer.created", resource: { type: "customer", id }, fields };
  const [[row]] = await db.batch([insert, recordIfChanged(db, audit)]);
  if (!row) throw new ApiError("customer_exists", `A customer with the e-mail ${email} exists already.`);
  return toCustomer(row);
}

/**
 * How a search term is found: `index` through the trigram index `customers_search` (a term of 3
 * or more characters), `scan` by a substring test on every customer of the business (shorter
 * terms, which have no trigram to look up, and terms with a NUL), or `none` without a term.
 */
type SearchKind = "none" | "index" | "scan";

/** The characters of a term as the trigram tokenizer counts them (code points). */
const MIN_INDEXED_TERM = 3;

export const searchKindOf = (term: string | undefined): SearchKind => {
  if (term === undefined) return "none";
  // FTS5 reads its query as a C string: a NUL would cut the phrase short, so such terms scan.
  return [...term].length >= MIN_INDEXED_TERM && !term.includes("\u0000") ? "index" : "scan";
};

/** A term as an FTS5 phrase: quoted, so every character is literal. */
const phraseOf = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** A page of customers, its seeks and its total, per kind of search: prepared once per isolate. */
const listQueries = (db: Database, search: SearchKind) =>
  preparedOnce(db, `customers-list:${search}`, (db) => {
    const term = sql.placeholder("term");
    // With a term the index finds the few matching rows first; the unary `+` keeps SQLite from
    // walking the business's (business_id, id) index instead, which reads every customer.
    const where = and(
      search === "index"
        ? sql`+${customers.businessId} = ${sql.placeholder("businessId")}`
        : eq(customers.businessId, sql.placeholder("businessId")),
      isNull(customers.erasedAt),
      search === "index"
        ? sql`${customers}.rowid IN (SELECT rowid FROM customers_search WHERE customers_search MATCH ${sql.placeholder("phrase")})`
        : undefined,
      // instr() is a plain substring test: no LIKE wildcards to escape, and both sides are
      // lower-cased. Behind the index it confirms each candidate: the trigram tokenizer skips a
      // NUL inside a stored name, so "b-\0c" would otherwise match the term "b-c".
      search === "none"
        ? undefined
        : or(
            sql`instr(${customers.nameNormalized}, ${term}) > 0`,
            sql`instr(${customers.emailNormalized}, ${term}) > 0`,
          ),
    );
    return {
      ...pageQueries(db, customers, where, [desc(customers.id)]),
      ...keysetQueries(db, customers, where, [search === "index" ? sql`+${customers.id}` : customers.id]),
    };
  });

const cursorKey = [/^[A-Za-z0-9_]{1,64}$/];
const keyOf = (customer: { id: string }) => [customer.id];

/**
 * One page of the business's customers (not erased), newest first, by page number or by
 * cursor, whose name or e-mail contains `search` when given, and how many there are: one D1
 * round trip. A term of 3 or more characters is looked up in the trigram index; a shorter one
 * tests every customer of the business. Without a term the total is the kept count.
 */
export async function customerPage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  query: CursorRequest & { search?: string },
): Promise<ListPage<ReturnType<typeof toCustomer>>> {
  const { page, limit, search } = query;
  const position = positionOf(query, cursorKey);
  const kind = searchKindOf(search);
  const queries = listQueries(db, kind);
  const lowered = search?.toLowerCase();
  const values = { businessId, term: lowered, ...(kind === "index" && lowered ? { phrase: phraseOf(lowered) } : {}) };
  const rowsRead =
    position.kind === "page"
      ? bind(queries.page, { ...values, limit, offset: offsetOf({ page, limit }, "search or a cursor (after)") })
      : bind(queries[position.kind], { ...values, limit: limit + 1, c0: position.key[0] });
  const totalRead = kind === "none" ? keptTotal(db, businessId, "customers") : bind(queries.total, values);
  const [rows, [totals]] = await read([rowsRead, totalRead]);
  const total = totals?.total ?? 0;
  const { rows: inOrder, hasNext, hasPrev } = pageAt(rows, position, { page, limit }, total);
  return { items: inOrder.map(toCustomer), hasNext, hasPrev, position, total, keyOf };
}
