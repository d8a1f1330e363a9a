/** The bookings list query, shared by `GET /bookings` and `GET /providers/{id}/bookings`. */

import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../../db/client";
import { bind, preparedOnce } from "../../db/prepared";
import { bookings } from "../../db/schema";
import { toBooking } from "../../domain/booking";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { offsetOf, paginate } from "../../lib/pagination";
import { readWithKey } from "../../middleware/key-check";
import type { BookingListQuery } from "../../schemas/bookings";

type Filters = Pick<BookingListQuery, "status" | "serviceId" | "customerId" | "from" | "to"> & { providerId?: string };
const filterNames = ["status", "serviceId", "customerId", "providerId", "from", "to"] as const;

/**
 * The page and total queries for one combination of filters, built once per isolate (at most
 * 2⁶ combinations): every value is a placeholder bound per request.
 */
function listQueries(db: Database, filters: Filters) {
  const present = filterNames.filter((name) => filters[name] !== undefined);
  return preparedOnce(db, `bookings-list:${present.join(",")}`, () => {
    const has = (name: (typeof filterNames)[number]) => present.includes(name);
    const where = and(
      eq(bookings.businessId, sql.placeholder("businessId")),
      has("status") ? eq(bookings.status, sql.placeholder("status")) : undefined,
      has("serviceId") ? eq(bookings.serviceId, sql.placeholder("serviceId")) : undefined,
      has("customerId") ? eq(bookings.customerId, sql.placeholder("customerId")) : undefined,
      has("providerId") ? eq(bookings.providerId, sql.placeholder("providerId")) : undefined,
      has("from") ? gte(bookings.startTime, sql.placeholder("from")) : undefined,
      has("to") ? lt(bookings.startTime, sql.placeholder("to")) : undefined,
    );
    return {
      page: db
        .select()
        .from(bookings)
        .where(where)
        .orderBy(desc(bookings.startTime), desc(bookings.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
      total: db.select({ total: count() }).from(bookings).where(where).prepare(),
    };
  });
}

/**
 * One page of the caller's bookings matching the filters (and `providerId` when given), newest
 * appointment first (`startTime` desc, then `id` desc), as the list envelope with its `Link` header.
 * Page, total and (when owed) the key check are one D1 round trip.
 */
export async function bookingPage(c: Context<AppEnv>, query: BookingListQuery & { providerId?: string }) {
  const { page, limit, status, serviceId, customerId, providerId, from, to } = query;
  if (from && to && Date.parse(from) >= Date.parse(to)) {
    throw new ApiError("validation_failed", "The query string is invalid.", {
      errors: [{ path: "to", message: "Must be after from." }],
    });
  }
  const offset = offsetOf({ page, limit }, "from and to (or status, serviceId, customerId)");
  const values = {
    businessId: c.var.caller.businessId,
    status,
    serviceId,
    customerId,
    providerId,
    from: from && new Date(from).toISOString(),
    to: to && new Date(to).toISOString(),
  };
  const queries = listQueries(c.var.db, values);
  const [rows, [totals]] = await readWithKey(c, [
    bind(queries.page, { ...values, limit, offset }),
    bind(queries.total, values),
  ]);
  return paginate(c, rows.map(toBooking), totals?.total ?? 0, { page, limit });
}
