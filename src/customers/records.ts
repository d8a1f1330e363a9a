/** Customers' rows: one by id, a new one, a page of them, and the public shape. */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bind, pageQueries, preparedOnce, type ReadBatch } from "../db/prepared";
import { type CustomerRow, customers } from "../db/schema";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/ids";
import { offsetOf, type PageRequest } from "../lib/pagination";
import { loadOwned } from "../lib/rows";

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
) {
  const now = new Date().toISOString();
  const [row] = await db
    .insert(customers)
    .values({
      id: newId("customer"),
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
  if (!row) throw new ApiError("customer_exists", `A customer with the e-mail ${email} exists already.`);
  return toCustomer(row);
}

/** A page of customers and its total, with or without a search term: prepared once per isolate. */
const listQueries = (db: Database, searching: boolean) =>
  preparedOnce(db, `customers-list:${searching}`, () => {
    const term = sql.placeholder("term");
    // instr() is a plain substring test: no LIKE wildcards to escape, and both sides are lower-cased.
    const where = and(
      eq(customers.businessId, sql.placeholder("businessId")),
      isNull(customers.erasedAt),
      searching
        ? or(
            sql`instr(${customers.nameNormalized}, ${term}) > 0`,
            sql`instr(${customers.emailNormalized}, ${term}) > 0`,
          )
        : undefined,
    );
    return pageQueries(db, customers, where, [desc(customers.id)]);
  });

/**
 * One page of the business's customers (not erased), newest first, whose name or e-mail
 * contains `search` when given, and how many there are: one D1 round trip.
 */
export async function customerPage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  { page, limit, search }: PageRequest & { search?: string },
) {
  const queries = listQueries(db, search !== undefined);
  const values = { businessId, term: search?.toLowerCase() };
  const [rows, [totals]] = await read([
    bind(queries.page, { ...values, limit, offset: offsetOf({ page, limit }, "search") }),
    bind(queries.total, values),
  ]);
  return { items: rows.map(toCustomer), total: totals?.total ?? 0 };
}
