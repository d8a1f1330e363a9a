/** A customer's erasure: placeholders everywhere the API keeps their details. */

import { and, eq, sql } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { bookings, customers, idempotencyKeys, webhookEvents } from "../db/schema";
import { loadOwned } from "../lib/rows";
import { eraseMessages } from "../messages/records";
import type { Actor } from "../types/actor";
import { type CustomerDetails, erasedDetails } from "../types/erasure";
import { rewriteCustomerInCalendars } from "./rewrite-in-calendars";

/**
 * Replaces the person's name, e-mail and phone, and the notes, answers and cancellation reasons of their
 * bookings, by placeholders: on the customer, in every calendar, on the bookings in D1, in stored
 * idempotent responses and in webhook payloads. Erasing an erased customer repeats the erasure.
 */
export async function eraseCustomer(
  env: Env,
  db: Database,
  businessId: string,
  id: string,
  actor: Actor,
): Promise<void> {
  const whereCustomer = and(eq(customers.businessId, businessId), eq(customers.id, id));
  // An erased customer is found too: erasing again repeats the erasure.
  const current = await loadOwned(db, customers, "customer", businessId, id);

  const startedAt = new Date(Math.max(Date.now(), Date.parse(current.updatedAt) + 1)).toISOString();
  const details = erasedDetails(id);
  // The customer first: from here on its e-mail belongs to nobody, so a new booking with it
  // makes a new customer, and a booking write still in flight with the old e-mail cannot
  // join this row (its D1 write fails on the id and is retried with the erased copy).
  // Its audit record names the fields erased, as every record does: there is nothing of the person to erase there.
  await db.batch([
    db
      .update(customers)
      .set({
        name: details.customerName,
        nameNormalized: details.customerName.toLowerCase(),
        email: details.customerEmail,
        emailNormalized: details.customerEmail,
        phone: null,
        updatedAt: startedAt,
        erasedAt: current.erasedAt ?? startedAt,
      })
      .where(whereCustomer),
    recordIfChanged(db, {
      businessId,
      actor,
      action: "customer.erased",
      resource: { type: "customer", id },
      fields: ["name", "email", "phone"],
    }),
  ]);
  // Then every calendar: each answers once its D1 writes (including any in flight) are done.
  await rewriteCustomerInCalendars(env, db, businessId, {
    customerId: id,
    email: current.emailNormalized,
    before: startedAt,
    details,
    erase: true,
  });
  await eraseFromD1(db, businessId, id, details, current.emailNormalized);
  await eraseFromManyBookingAnswers(db, businessId, id, details);
  // Waitlist offers carry the entry, which has the e-mail but no customer id.
  await db
    .update(webhookEvents)
    .set({
      payload: sql`json_set(${webhookEvents.payload}, '$.data.customerName', ${details.customerName}, '$.data.customerEmail', ${details.customerEmail})`,
    })
    .where(
      and(
        eq(webhookEvents.businessId, businessId),
        eq(webhookEvents.type, "waitlist.offered"),
        sql`lower(json_extract(${webhookEvents.payload}, '$.data.customerEmail')) = ${current.emailNormalized}`,
      ),
    );
}

/**
 * Scrubs D1 copies of the person: the bookings' denormalised details, notes, answers and
 * cancellation reasons, the booking bodies embedded in stored idempotent responses and webhook
 * payloads, and the addresses of their messages (queued ones are not sent).
 */
function eraseFromD1(db: Database, businessId: string, customerId: string, details: CustomerDetails, email: string) {
  const bookingIds = sql`(SELECT ${bookings.id} FROM ${bookings} WHERE ${bookings.businessId} = ${businessId} AND ${bookings.customerId} = ${customerId})`;
  const scrubbed = (column: typeof idempotencyKeys.responseBody | typeof webhookEvents.payload, root: string) =>
    sql`json_set(${column}, ${`${root}.customerName`}, ${details.customerName}, ${`${root}.customerEmail`}, ${details.customerEmail}, ${`${root}.customerPhone`}, NULL, ${`${root}.notes`}, NULL, ${`${root}.cancellationReason`}, NULL, ${`${root}.answers`}, json('{}'))`;
  return db.batch([
    // The messages first: their bookings are found by customer id, which the next statement keeps.
    eraseMessages(db, businessId, customerId, email),
    db
      .update(bookings)
      .set({
        customerName: details.customerName,
        customerEmail: details.customerEmail,
        customerPhone: null,
        notes: null,
        answers: {},
        cancellationReason: null,
      })
      .where(and(eq(bookings.businessId, businessId), eq(bookings.customerId, customerId))),
    db
      .update(idempotencyKeys)
      .set({ responseBody: scrubbed(idempotencyKeys.responseBody, "$") })
      .where(
        and(
          eq(idempotencyKeys.businessId, businessId),
          sql`json_valid(${idempotencyKeys.responseBody}) AND json_extract(${idempotencyKeys.responseBody}, '$.id') IN ${bookingIds}`,
        ),
      ),
    // A reminder carries its booking one level down.
    ...(["$.data", "$.data.booking"] as const).map((root) =>
      db
        .update(webhookEvents)
        .set({ payload: scrubbed(webhookEvents.payload, root) })
        .where(
          and(
            eq(webhookEvents.businessId, businessId),
            sql`json_extract(${webhookEvents.payload}, ${`${root}.id`}) IN ${bookingIds}`,
          ),
        ),
    ),
  ]);
}

/**
 * Stored answers of visits and series (`POST /appointments`, `POST /series`) hold several
 * bookings: each one of the person's is scrubbed in place.
 */
async function eraseFromManyBookingAnswers(
  db: Database,
  businessId: string,
  customerId: string,
  details: CustomerDetails,
) {
  const rows = await db
    .select({ key: idempotencyKeys.key, body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.businessId, businessId),
        sql`instr(${idempotencyKeys.responseBody}, ${customerId}) > 0`,
        sql`json_valid(${idempotencyKeys.responseBody}) AND json_type(${idempotencyKeys.responseBody}, '$.bookings') = 'array'`,
      ),
    );
  for (const row of rows) {
    const body = JSON.parse(row.body ?? "{}") as { bookings: Record<string, unknown>[] };
    body.bookings = body.bookings.map((b) =>
      b.customerId === customerId
        ? { ...b, ...details, notes: null, cancellationReason: null, answers: {}, manageUrl: null }
        : b,
    );
    await db
      .update(idempotencyKeys)
      .set({ responseBody: JSON.stringify(body) })
      .where(and(eq(idempotencyKeys.businessId, businessId), eq(idempotencyKeys.key, row.key)));
  }
}
