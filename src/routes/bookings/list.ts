import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, count, desc, eq, gte, lt } from "drizzle-orm";
import { bookings } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../lib/errors";
import { bearerSecurity, problemResponses } from "../../lib/openapi";
import { offsetOf, paginate, paginationQuery } from "../../lib/pagination";
import { BookingListSchema, BookingStatusSchema, toBooking, utcDateTime } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/",
  operationId: "listBookings",
  tags: ["Bookings"],
  summary: "List bookings",
  description:
    "Newest appointment first (`startTime` descending, then `id` descending). Pages reach back at most 10,000 bookings (see `page`); use `from`/`to` to read older ones.",
  security: bearerSecurity,
  request: {
    query: z.strictObject({
      ...paginationQuery,
      status: BookingStatusSchema.optional(),
      serviceId: z.string().min(1).max(64).optional(),
      customerId: z.string().min(1).max(64).optional(),
      from: utcDateTime.optional().openapi({ description: "Only appointments starting at or after this instant." }),
      to: utcDateTime.optional().openapi({ description: "Only appointments starting before this instant." }),
    }),
  },
  responses: {
    200: { description: "A page of bookings.", content: { "application/json": { schema: BookingListSchema } } },
    ...problemResponses(422),
  },
});

export const listBookings = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { page, limit, status, serviceId, customerId, from, to } = c.req.valid("query");
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
    return c.json(paginate(c, rows.map(toBooking), totals?.total ?? 0, { page, limit }), 200);
  });
