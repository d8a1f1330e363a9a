/** Changes to a customer's details: in D1, in every calendar's copies, and on their bookings in D1. */

import { and, eq, isNull, sql } from "drizzle-orm";
import { fieldsOf, recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { bookings, customers } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { ifMatchCondition, isUniqueViolation, nothingWritten } from "../lib/rows";
import type { Actor } from "../types/actor";
import { loadCustomer, toCustomer } from "./records";
import { rewriteCustomerInCalendars } from "./rewrite-in-calendars";

/**
 * Changes the business's customer's name, e-mail or phone (with If-Match tags, only if it still
 * has one of them: else 412), then the copies of those details in every calendar and on the
 * customer's bookings in D1. An e-mail another customer of the business has is a 409
 * `customer_exists`. Answers the customer as the API shows it.
 */
export async function editCustomer(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  { name, email, phone }: { name?: string; email?: string; phone?: string | null },
  ifMatch: string[] | undefined,
  actor: Actor,
) {
  const current = await loadCustomer(db, businessId, id);
  const where = and(
    eq(customers.businessId, businessId),
    eq(customers.id, id),
    isNull(customers.erasedAt),
    // With If-Match, write only if nothing changed since the check (compare-and-set on updatedAt).
    ifMatchCondition(ifMatch, customers.updatedAt, current.updatedAt),
  );
  // updatedAt is the ETag's marker: it moves forward on every change, even within one millisecond.
  const updatedAt = new Date(Math.max(Date.now(), Date.parse(current.updatedAt) + 1)).toISOString();
  const update = db
    .update(customers)
    .set({
      ...(name === undefined ? {} : { name, nameNormalized: name.toLowerCase() }),
      ...(email === undefined ? {} : { email, emailNormalized: email.toLowerCase() }),
      ...(phone === undefined ? {} : { phone }),
      updatedAt,
    })
    .where(where)
    .returning();
  // Field names only: the audit never holds a customer's name, e-mail or phone.
  const audit = { businessId, actor, action: "customer.updated", resource: { type: "customer", id } };
  const [[row]] = await db
    .batch([update, recordIfChanged(db, { ...audit, fields: fieldsOf({ name, email, phone }) })])
    .catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      throw new ApiError("customer_exists", `Another customer has the e-mail ${email} already.`, {
        errors: [{ path: "email", message: "Taken by another customer of this business." }],
      });
    });
  if (!row) throw nothingWritten("customer", id, ifMatch);

  // The calendars first: each answers once its D1 writes (including any in flight) are done,
  // so the copy into D1's bookings below is the last word.
  await rewriteCustomerInCalendars(env, db, businessId, {
    customerId: id,
    email: current.emailNormalized,
    before: updatedAt,
    details: { customerName: row.name, customerEmail: row.email, customerPhone: row.phone },
    erase: false,
  });
  await copyDetailsToBookings(db, businessId, id);
  return toCustomer(row);
}

/** Copies the customer's current details onto its bookings in D1 (read in the same statement, so a later edit wins). */
function copyDetailsToBookings(db: Database, businessId: string, customerId: string) {
  return db
    .update(bookings)
    .set({
      customerName: sql`${customers.name}`,
      customerEmail: sql`${customers.email}`,
      customerPhone: sql`${customers.phone}`,
    })
    .from(customers)
    .where(
      and(
        eq(bookings.businessId, businessId),
        eq(bookings.customerId, customerId),
        eq(customers.id, bookings.customerId),
        isNull(customers.erasedAt),
      ),
    );
}
