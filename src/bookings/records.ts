/**
 * Bookings as D1 keeps them: one by id, and the list of `GET /bookings`, a provider's and a
 * resource's (`GET /providers/{id}/bookings`, `GET /resources/{id}/bookings`).
 */
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bind, pageQueries, preparedOnce, type ReadBatch } from "../db/prepared";
import { type BookingRow, bookingProviders, bookingResources, bookings } from "../db/schema";
import { type BookingStatus, toBooking } from "../domain/booking";
import { ApiError } from "../lib/errors";
import { offsetOf, type PageRequest } from "../lib/pagination";
import { loadOwned } from "../lib/rows";
import { loadProvider } from "../providers/records";
import { loadResource } from "../resources/records";

/** The business's booking with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadBooking = (db: Database, businessId: string, id: string): Promise<BookingRow> =>
  loadOwned(db, bookings, "booking", businessId, id);

/** What a bookings list may be narrowed to; `from` and `to` bound the appointment's start. */
export type BookingFilters = {
  status?: BookingStatus;
  serviceId?: string;
  customerId?: string;
  /** Bookings that claimed this person: the one who performs it, or one of a team. */
  providerId?: string;
  /** Bookings that took a unit of this resource. */
  resourceId?: string;
  from?: string;
  to?: string;
};

const filterNames = ["status", "serviceId", "customerId", "providerId", "resourceId", "from", "to"] as const;

/** Bookings linked to the person or resource named by the placeholder `name`, through its link table. */
function linkedTo(db: Database, name: "providerId" | "resourceId") {
  const linked =
    name === "providerId"
      ? db
          .select({ id: bookingProviders.bookingId })
          .from(bookingProviders)
          .where(
            and(
              eq(bookingProviders.businessId, sql.placeholder("businessId")),
              eq(bookingProviders.providerId, sql.placeholder(name)),
            ),
          )
      : db
          .select({ id: bookingResources.bookingId })
          .from(bookingResources)
          .where(
            and(
              eq(bookingResources.businessId, sql.placeholder("businessId")),
              eq(bookingResources.resourceId, sql.placeholder(name)),
            ),
          );
  return inArray(bookings.id, linked);
}

/**
 * The page and total queries for one combination of filters, built once per isolate (at most
 * 2⁷ combinations): every value is a placeholder bound per request.
 */
function listQueries(db: Database, filters: BookingFilters) {
  const present = filterNames.filter((name) => filters[name] !== undefined);
  return preparedOnce(db, `bookings-list:${present.join(",")}`, () => {
    const has = (name: (typeof filterNames)[number]) => present.includes(name);
    const where = and(
      eq(bookings.businessId, sql.placeholder("businessId")),
      has("status") ? eq(bookings.status, sql.placeholder("status")) : undefined,
      has("serviceId") ? eq(bookings.serviceId, sql.placeholder("serviceId")) : undefined,
      has("customerId") ? eq(bookings.customerId, sql.placeholder("customerId")) : undefined,
      has("providerId") ? linkedTo(db, "providerId") : undefined,
      has("resourceId") ? linkedTo(db, "resourceId") : undefined,
      has("from") ? gte(bookings.startTime, sql.placeholder("from")) : undefined,
      has("to") ? lt(bookings.startTime, sql.placeholder("to")) : undefined,
    );
    return pageQueries(db, bookings, where, [desc(bookings.startTime), desc(bookings.id)]);
  });
}

/**
 * One page of the business's bookings matching the filters, newest appointment first
 * (`startTime` desc, then `id` desc), and how many match: one D1 round trip. With both `from`
 * and `to`, `from` must be before `to` (else 422 on `to`).
 */
export async function bookingPage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  query: PageRequest & BookingFilters,
) {
  const { page, limit, status, serviceId, customerId, providerId, resourceId, from, to } = query;
  if (from && to && Date.parse(from) >= Date.parse(to)) {
    throw new ApiError("validation_failed", "The query string is invalid.", {
      errors: [{ path: "to", message: "Must be after from." }],
    });
  }
  const offset = offsetOf({ page, limit }, "from and to (or status, serviceId, customerId)");
  const values = {
    businessId,
    status,
    serviceId,
    customerId,
    providerId,
    resourceId,
    from: from && new Date(from).toISOString(),
    to: to && new Date(to).toISOString(),
  };
  const queries = listQueries(db, values);
  const [rows, [totals]] = await read([bind(queries.page, { ...values, limit, offset }), bind(queries.total, values)]);
  return { items: rows.map(toBooking), total: totals?.total ?? 0 };
}

/** One page of a provider's bookings across services, as `bookingPage`; a 404 unless the provider is the business's. */
export async function providerBookingPage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  providerId: string,
  query: PageRequest & Omit<BookingFilters, "providerId">,
) {
  await loadProvider(db, businessId, providerId);
  return bookingPage(db, read, businessId, { ...query, providerId });
}

/** One page of a resource's bookings across services, as `bookingPage`; a 404 unless the resource is the business's. */
export async function resourceBookingPage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  resourceId: string,
  query: PageRequest & Omit<BookingFilters, "providerId" | "resourceId">,
) {
  await loadResource(db, businessId, resourceId);
  return bookingPage(db, read, businessId, { ...query, resourceId });
}
