import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, isNull, sql } from "drizzle-orm";
import { rewriteCustomerInCalendars } from "../../customers/calendars";
import type { Database } from "../../db/client";
import { bookings, customers } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { assertIfMatch, etagOf, ifMatchTags } from "../../lib/etag";
import {
  bearerSecurity,
  bodyProblems,
  idParam,
  ifMatchHeader,
  jsonResponse,
  problemResponses,
} from "../../lib/openapi";
import { CustomerSchema, toCustomer, UpdateCustomerSchema } from "../../schemas/customers";
import { isUniqueViolation, loadCustomer } from "./load";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateCustomer",
  tags: ["Customers"],
  summary: "Change a customer's name, e-mail or phone",
  description:
    "The customer's bookings show the new details too. E-mail addresses stay unique per business, compared case-insensitively (`409 customer_exists`).",
  security: bearerSecurity,
  request: {
    params: idParam("cus_01jd3k5v7q8r9s0t1u2v3w4x5y"),
    headers: ifMatchHeader,
    body: { required: true, content: { "application/json": { schema: UpdateCustomerSchema } } },
  },
  responses: {
    200: jsonResponse("The updated customer.", CustomerSchema, { required: ["ETag"] }),
    ...problemResponses(404, 409, 412, ...bodyProblems),
  },
});

export const updateCustomer = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { name, email, phone } = c.req.valid("json");
    const { businessId } = c.var.caller;
    const current = await loadCustomer(c.var.db, businessId, id);
    assertIfMatch(ifMatchTags(c), etagOf(current.updatedAt));
    let where = and(eq(customers.businessId, businessId), eq(customers.id, id), isNull(customers.erasedAt));
    // With If-Match, write only if nothing changed since the check (compare-and-set on updatedAt).
    if (ifMatchTags(c) !== undefined) where = and(where, eq(customers.updatedAt, current.updatedAt));
    // updatedAt is the ETag's marker: it moves forward on every change, even within one millisecond.
    const updatedAt = new Date(Math.max(Date.now(), Date.parse(current.updatedAt) + 1)).toISOString();
    const [row] = await c.var.db
      .update(customers)
      .set({
        ...(name === undefined ? {} : { name, nameNormalized: name.toLowerCase() }),
        ...(email === undefined ? {} : { email, emailNormalized: email.toLowerCase() }),
        ...(phone === undefined ? {} : { phone }),
        updatedAt,
      })
      .where(where)
      .returning()
      .catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        throw new ApiError("customer_exists", `Another customer has the e-mail ${email} already.`, {
          errors: [{ path: "email", message: "Taken by another customer of this business." }],
        });
      });
    if (!row && ifMatchTags(c) !== undefined) {
      throw new ApiError("precondition_failed", "The customer changed while this request ran; fetch it again.");
    }
    if (!row) throw new ApiError("not_found", `No customer ${id}.`);

    // The calendars first: each answers once its D1 writes (including any in flight) are done,
    // so the copy into D1's bookings below is the last word.
    await rewriteCustomerInCalendars(c.env, c.var.db, businessId, {
      customerId: id,
      email: current.emailNormalized,
      before: updatedAt,
      details: { customerName: row.name, customerEmail: row.email, customerPhone: row.phone },
      erase: false,
    });
    await copyDetailsToBookings(c.var.db, businessId, id);
    c.header("ETag", etagOf(row.updatedAt));
    return c.json(toCustomer(row), 200);
  });

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
