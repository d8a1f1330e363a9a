import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { type CustomerDetails, erasedDetails } from "../../calendar";
import { rewriteCustomerInCalendars } from "../../customers/calendars";
import type { Database } from "../../db/client";
import { bookings, customers, idempotencyKeys, webhookEvents } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { bearerSecurity, emptyResponse, idParam, problemResponses } from "../../lib/openapi";

const route = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteCustomer",
  tags: ["Customers"],
  summary: "Erase a customer (right to erasure)",
  description:
    "Replaces the person's name, e-mail and phone, and the notes and cancellation reasons of their bookings, by placeholders everywhere the API keeps them: the customer, the bookings, stored idempotent responses and webhook payloads. Bookings keep their times, status and service. The customer disappears from reads and search; a later booking with the same e-mail makes a new customer. Repeating the call on an erased customer repeats the erasure (`204`).",
  security: bearerSecurity,
  request: { params: idParam("cus_01jd3k5v7q8r9s0t1u2v3w4x5y") },
  responses: {
    204: emptyResponse("Erased."),
    ...problemResponses(404, 422),
  },
});

export const eraseCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { businessId } = c.var.caller;
    const whereCustomer = and(eq(customers.businessId, businessId), eq(customers.id, id));
    const [current] = await c.var.db.select().from(customers).where(whereCustomer).limit(1);
    if (!current) throw new ApiError("not_found", `No customer ${id}.`);

    const startedAt = new Date(Math.max(Date.now(), Date.parse(current.updatedAt) + 1)).toISOString();
    const details = erasedDetails(id);
    // The customer first: from here on its e-mail belongs to nobody, so a new booking with it
    // makes a new customer, and a booking write still in flight with the old e-mail cannot
    // join this row (its D1 write fails on the id and is retried with the erased copy).
    await c.var.db
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
      .where(whereCustomer);
    // Then every calendar: each answers once its D1 writes (including any in flight) are done.
    await rewriteCustomerInCalendars(c.env, c.var.db, businessId, {
      customerId: id,
      email: current.emailNormalized,
      before: startedAt,
      details,
      erase: true,
    });
    await eraseFromD1(c.var.db, businessId, id, details);
    return c.body(null, 204);
  });

/**
 * Scrubs D1 copies of the person: the bookings' denormalised details, notes and cancellation
 * reasons, and the booking bodies embedded in stored idempotent responses and webhook payloads.
 */
function eraseFromD1(db: Database, businessId: string, customerId: string, details: CustomerDetails) {
  const bookingIds = sql`(SELECT ${bookings.id} FROM ${bookings} WHERE ${bookings.businessId} = ${businessId} AND ${bookings.customerId} = ${customerId})`;
  const scrubbed = (column: typeof idempotencyKeys.responseBody | typeof webhookEvents.payload, root: string) =>
    sql`json_set(${column}, ${`${root}.customerName`}, ${details.customerName}, ${`${root}.customerEmail`}, ${details.customerEmail}, ${`${root}.customerPhone`}, NULL, ${`${root}.notes`}, NULL, ${`${root}.cancellationReason`}, NULL)`;
  return db.batch([
    db
      .update(bookings)
      .set({
        customerName: details.customerName,
        customerEmail: details.customerEmail,
        customerPhone: null,
        notes: null,
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
    db
      .update(webhookEvents)
      .set({ payload: scrubbed(webhookEvents.payload, "$.data") })
      .where(
        and(
          eq(webhookEvents.businessId, businessId),
          sql`json_extract(${webhookEvents.payload}, '$.data.id') IN ${bookingIds}`,
        ),
      ),
  ]);
}
