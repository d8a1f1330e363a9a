/**
 * What the customers' pages show, each part read by the function the API's operation uses after
 * the same role check: a search (`GET /customers?search=`), one customer (`GET /customers/{id}`)
 * and their bookings (`GET /bookings?customerId=`, or for staff their own person's list, `GET
 * /providers/{id}/bookings?customerId=`, so a staff member sees only their own bookings of them).
 */
import { and, eq, inArray } from "drizzle-orm";
import { bookingPage } from "../../bookings/list";
import { customerPage, loadCustomer, toCustomer } from "../../customers/records";
import { services } from "../../db/schema";
import { ApiError } from "../../lib/api-error";
import { batchReader } from "../../middleware/key-check";
import { authorise, may } from "../frame/authorise";
import { asApp, type DeskContext } from "../frame/desk";

/** How many customers a search shows, and how many bookings a customer's page lists (newest first). */
export const SHOWN = 25;
export const BOOKINGS_SHOWN = 50;

/** The longest search term (the API's `search` bound). */
export const MAX_TERM = 200;

/** A page of customers matching `term` (name or e-mail), newest first; without a term the newest ones. */
export async function searchCustomers(c: DeskContext, term: string | undefined) {
  await authorise(c, "customers:read", "GET /customers");
  return customerPage(c.var.db, batchReader(asApp(c)), c.var.caller.businessId, {
    page: 1,
    limit: SHOWN,
    ...(term ? { search: term } : {}),
  });
}

/** The business's customer (a 404, thrown, when it is not theirs, erased, or not the staff member's). */
export async function customerOf(c: DeskContext, id: string) {
  if (id.length > 64) throw new ApiError("not_found", `No customer ${id.slice(0, 64)}.`);
  await authorise(c, "customers:read", "GET /customers/:id", id);
  return toCustomer(await loadCustomer(c.var.db, c.var.caller.businessId, id));
}

/** The customer's bookings the member may read: all of them, or a staff member's own. */
async function bookingsOf(c: DeskContext, customerId: string) {
  const { businessId, member } = c.var.caller;
  const window = { page: 1, limit: BOOKINGS_SHOWN, customerId };
  const read = batchReader(asApp(c));
  if (member?.role !== "staff") {
    await authorise(c, "bookings:read", "GET /bookings");
    return bookingPage(c.var.db, read, businessId, window);
  }
  const own = member.providerId ?? "";
  await authorise(c, "bookings:read", "GET /providers/:id/bookings", own);
  return bookingPage(c.var.db, read, businessId, { ...window, providerId: own }, "providerId");
}

/** A customer's page: their facts, bookings (with the services' names) and what the member may do. */
export async function loadCustomerView(c: DeskContext, id: string) {
  const customer = await customerOf(c, id);
  const list = await bookingsOf(c, id);
  const ids = [...new Set(list.items.map((b) => b.serviceId))];
  const names =
    ids.length === 0
      ? []
      : await c.var.db
          .select({ id: services.id, name: services.name })
          .from(services)
          .where(and(eq(services.businessId, c.var.caller.businessId), inArray(services.id, ids)));
  return {
    customer,
    bookings: list.items,
    more: list.hasNext,
    serviceNames: new Map(names.map((row) => [row.id, row.name])),
    canEdit: await may(c, "customers:write", "PATCH /customers/:id", id),
    canErase: await may(c, "customers:write", "DELETE /customers/:id", id),
  };
}

export type CustomerView = Awaited<ReturnType<typeof loadCustomerView>>;
export type CustomerFacts = CustomerView["customer"];
