/**
 * The bookings list of `GET /bookings` and of a person's or a resource's bookings: a page by
 * number or by cursor, and its total from the kept counts when the filters have one
 * (src/lists/counts.ts).
 */
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bind, keysetQueries, pageQueries, preparedOnce, type ReadBatch } from "../db/prepared";
import { type BookingRow, bookingProviders, bookingResources, bookings, providers, resources } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { loadOwned } from "../lib/rows";
import { keptBookingDimension, keptTotal } from "../lists/counts";
import { type CursorRequest, type ListPage, pageAt, positionOf } from "../lists/cursor";
import { offsetOf } from "../lists/pagination";
import { type Booking, type BookingFilters, toBooking } from "../types/booking";
import { anyOpenConflict, type ConflictedBooking, conflictedFilter, noConflicts, withConflicts } from "./conflicts";

/** Bookings as D1 keeps them: one by id (the lists are in src/bookings/list.ts). */

/** The business's booking with this id, or a 404 that does not tell other tenants' ids apart. */
export const loadBooking = (db: Database, businessId: string, id: string): Promise<BookingRow> =>
  loadOwned(db, bookings, "booking", businessId, id);

const filterNames = [
  "status",
  "serviceId",
  "customerId",
  "providerId",
  "resourceId",
  "from",
  "to",
  "conflicted",
] as const;

/** Bookings linked to the person or resource named by the placeholder `name`, through its assignment table. */
function assignedTo(db: Database, name: "providerId" | "resourceId") {
  const [table, column] =
    name === "providerId"
      ? ([bookingProviders, bookingProviders.providerId] as const)
      : ([bookingResources, bookingResources.resourceId] as const);
  const linked = db
    .select({ id: table.bookingId })
    .from(table)
    .where(and(eq(table.businessId, sql.placeholder("businessId")), eq(column, sql.placeholder(name))));
  return inArray(bookings.id, linked);
}

/** A booking cursor's key: the start (as D1 stores it) and the id. */
const cursorKey = [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, /^[A-Za-z0-9_]{1,64}$/];
const keyOf = (booking: Booking) => [booking.startTime, booking.id];

/**
 * The page, seek and count queries for one combination of filters, built once per isolate (at
 * most 2⁷ combinations): every value is a placeholder bound per request.
 */
function listQueries(db: Database, filters: BookingFilters) {
  const present = filterNames.filter((name) => filters[name] !== undefined);
  // `conflicted` is true or false: each its own query (the value is in its text, not bound).
  const key = present.map((name) => (name === "conflicted" ? `conflicted=${filters.conflicted}` : name));
  return preparedOnce(db, `bookings-list:${key.join(",")}`, (db) => {
    const has = (name: (typeof filterNames)[number]) => present.includes(name);
    const where = and(
      eq(bookings.businessId, sql.placeholder("businessId")),
      has("status") ? eq(bookings.status, sql.placeholder("status")) : undefined,
      has("serviceId") ? eq(bookings.serviceId, sql.placeholder("serviceId")) : undefined,
      has("customerId") ? eq(bookings.customerId, sql.placeholder("customerId")) : undefined,
      has("providerId") ? assignedTo(db, "providerId") : undefined,
      has("resourceId") ? assignedTo(db, "resourceId") : undefined,
      has("from") ? gte(bookings.startTime, sql.placeholder("from")) : undefined,
      has("to") ? lt(bookings.startTime, sql.placeholder("to")) : undefined,
      has("conflicted") ? conflictedFilter(db, filters.conflicted === "true") : undefined,
    );
    return {
      ...pageQueries(db, bookings, where, [desc(bookings.startTime), desc(bookings.id)]),
      ...keysetQueries(db, bookings, where, [bookings.startTime, bookings.id]),
    };
  });
}

/** What a list may be scoped to: one person's or one resource's bookings, a 404 unless it is the business's. */
export type OwnerColumn = "providerId" | "resourceId";

const scopes = {
  providerId: { table: providers, noun: "provider" },
  resourceId: { table: resources, noun: "resource" },
} as const;

/** Whether the list's person or resource is the business's, read in the list's own batch (one round trip). */
function ownerRead(db: Database, businessId: string, ownerId: string, scope: OwnerColumn) {
  const owner = preparedOnce(db, `bookings-owner:${scope}`, (db) => {
    const { table } = scopes[scope];
    return db
      .select({ ownerId: table.id })
      .from(table)
      .where(and(eq(table.businessId, sql.placeholder("businessId")), eq(table.id, sql.placeholder("ownerId"))))
      .limit(1)
      .prepare();
  });
  return bind(owner, { businessId, ownerId });
}

/**
 * One page of the business's bookings matching the filters, newest booking first
 * (`startTime` desc, then `id` desc), by page number or by cursor, and how many match: one D1
 * round trip (and one more for their conflicts when the business has any open one). The total is a kept count for no filter or one of status, serviceId, customerId,
 * providerId; other combinations count their rows. With both `from` and `to`, `from` must be
 * before `to` (else 422 on `to`).
 */
export async function bookingPage(
  db: Database,
  read: ReadBatch,
  businessId: string,
  query: CursorRequest & BookingFilters,
  scope?: OwnerColumn,
): Promise<ListPage<ConflictedBooking>> {
  const { page, limit, status, serviceId, customerId, providerId, resourceId, from, to, conflicted } = query;
  if (from && to && Date.parse(from) >= Date.parse(to)) {
    throw new ApiError("validation_failed", "The query string is invalid.", {
      errors: [{ path: "to", message: "Must be after from." }],
    });
  }
  const position = positionOf(query, cursorKey);
  const values = {
    businessId,
    status,
    serviceId,
    customerId,
    providerId,
    resourceId,
    from: from && new Date(from).toISOString(),
    to: to && new Date(to).toISOString(),
    conflicted,
  };
  const queries = listQueries(db, values);
  const rowsRead =
    position.kind === "page"
      ? bind(queries.page, {
          ...values,
          limit,
          offset: offsetOf({ page, limit }, "from and to (or status, serviceId, customerId) or a cursor (after)"),
        })
      : bind(queries[position.kind], { ...values, limit: limit + 1, c0: position.key[0], c1: position.key[1] });
  // No count is kept of conflicted bookings: that filter counts its rows.
  const kept = conflicted
    ? undefined
    : keptBookingDimension({ status, serviceId, customerId, providerId, resourceId, from, to });
  const totalRead = kept ? keptTotal(db, businessId, kept.dimension, kept.value) : bind(queries.total, values);
  const anyConflict = bind(anyOpenConflict(db), { businessId });
  const [rows, [totals], open] = scope
    ? await read([rowsRead, totalRead, anyConflict, ownerRead(db, businessId, query[scope] ?? "", scope)]).then(
        ([page, total, conflicts, found]) => {
          if (found.length === 0) throw new ApiError("not_found", `No ${scopes[scope].noun} ${query[scope]}.`);
          return [page, total, conflicts] as const;
        },
      )
    : await read([rowsRead, totalRead, anyConflict]);
  const total = totals?.total ?? 0;
  const { rows: inOrder, hasNext, hasPrev } = pageAt(rows, position, { page, limit }, total);
  const found = inOrder.map(toBooking);
  // The page's conflicts cost a second round trip only for a business that has an open one.
  const items = open.length > 0 ? await withConflicts(db, businessId, found) : found.map(noConflicts);
  return { items, hasNext, hasPrev, position, total, keyOf };
}
