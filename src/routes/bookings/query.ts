/** The bookings list query, shared by `GET /bookings` and `GET /providers/{id}/bookings`. */
import { z } from "@hono/zod-openapi";
import { and, count, desc, eq, gte, lt } from "drizzle-orm";
import type { Context } from "hono";
import { toBooking } from "../../bookings/booking";
import { bookings } from "../../db/schema";
import type { AppEnv } from "../../env";
import { utcDateTime, utcDateTimeRule } from "../../lib/datetime";
import { ApiError } from "../../lib/errors";
import { offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { BookingStatusSchema } from "./schemas";

/** Query parameters of a bookings list: page, limit and the filters. */
export const bookingListQuery = {
  ...paginationQuery,
  status: BookingStatusSchema.optional(),
  serviceId: z.string().min(1).max(64).optional(),
  customerId: z.string().min(1).max(64).optional(),
  from: utcDateTime.optional().openapi({
    description: `Only appointments starting at or after this instant. ${utcDateTimeRule}`,
    example: "2026-12-01T00:00:00Z",
  }),
  to: utcDateTime.optional().openapi({
    description: `Only appointments starting before this instant; after \`from\` when both are given. ${utcDateTimeRule}`,
    example: "2026-12-08T00:00:00Z",
  }),
};

const listQuery = z.strictObject(bookingListQuery);
export type BookingListQuery = z.infer<typeof listQuery>;

/**
 * One page of the caller's bookings matching the filters (and `providerId` when given), newest
 * appointment first (`startTime` desc, then `id` desc), as the list envelope with its `Link` header.
 */
export async function bookingPage(c: Context<AppEnv>, query: BookingListQuery & { providerId?: string }) {
  const { page, limit, status, serviceId, customerId, providerId, from, to } = query;
  if (from && to && Date.parse(from) >= Date.parse(to)) {
    throw new ApiError("validation_failed", "The query string is invalid.", {
      errors: [{ path: "to", message: "Must be after from." }],
    });
  }
  const where = and(
    eq(bookings.businessId, c.var.caller.businessId),
    status ? eq(bookings.status, status) : undefined,
    serviceId ? eq(bookings.serviceId, serviceId) : undefined,
    customerId ? eq(bookings.customerId, customerId) : undefined,
    providerId ? eq(bookings.providerId, providerId) : undefined,
    from ? gte(bookings.startTime, new Date(from).toISOString()) : undefined,
    to ? lt(bookings.startTime, new Date(to).toISOString()) : undefined,
  );
  const [rows, [totals]] = await c.var.db.batch([
    c.var.db
      .select()
      .from(bookings)
      .where(where)
      .orderBy(desc(bookings.startTime), desc(bookings.id))
      .limit(limit)
      .offset(offsetOf({ page, limit }, "from and to (or status, serviceId, customerId)")),
    c.var.db.select({ total: count() }).from(bookings).where(where),
  ]);
  return paginate(c, rows.map(toBooking), totals?.total ?? 0, { page, limit });
}
