/**
 * The bookings a day or week draws: those starting within [from, to), the business's or one
 * person's, after the same role check as the API's lists (`GET /bookings`, `GET
 * /providers/{id}/bookings`), latest first as those lists are, with their open conflicts. Only what
 * the columns and the fingerprint use is read: a busy day is 300 rows, and mapping every column
 * of each (as a list's page does for its 100) was a third of the day page's work.
 */
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { anyOpenConflict, withConflicts } from "../../bookings/conflicts";
import type { Database } from "../../db/client";
import { bind, type PreparedRead, preparedOnce } from "../../db/prepared";
import { bookingProviders, bookings } from "../../db/schema";
import { batchReader } from "../../middleware/key-check";
import type { Booking, BookingConflict } from "../../types/booking";
import { authorise } from "../frame/authorise";
import { asApp, type DeskContext } from "../frame/desk";

/** The business's bookings that start within the stretch (placeholders `businessId`, `from`, `to`). */
export const startingWithin = () => [
  eq(bookings.businessId, sql.placeholder("businessId")),
  gte(bookings.startTime, sql.placeholder("from")),
  lt(bookings.startTime, sql.placeholder("to")),
];

/** What a day knows of a booking: what its block says and what its fingerprint hashes. */
export type DayBooking = Pick<
  Booking,
  "id" | "serviceId" | "providerIds" | "resourceIds" | "customerName" | "startTime" | "endTime" | "status" | "updatedAt"
> & {
  /** The start and end as instants (ms), parsed once: the drawing places by them. */
  start: number;
  end: number;
  conflicts: BookingConflict[];
};

/**
 * The most bookings one day or week shows (a salon of ten people with thirty bookings each needs
 * 300); past it, the latest this many are shown and the page says so.
 */
export const MAX_SHOWN = 400;

const drawn = {
  id: bookings.id,
  serviceId: bookings.serviceId,
  providerId: bookings.providerId,
  providerIds: bookings.providerIds,
  resourceIds: bookings.resourceIds,
  customerName: bookings.customerName,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  status: bookings.status,
  updatedAt: bookings.updatedAt,
};

/** A booking as the read answers it: `drawn`'s values in that order (the JSON columns as JSON). */
type DrawnRow = [
  id: string,
  serviceId: string,
  providerId: string | null,
  providerIds: string[] | null,
  resourceIds: string[] | null,
  customerName: string,
  startTime: string,
  endTime: string,
  status: Booking["status"],
  updatedAt: string,
];

/**
 * The stretch's bookings, the business's or (`person`) those that claimed this provider, latest
 * first, as one JSON array that SQLite builds (one value to decode instead of ten a row: a busy
 * day's 300 rows mapped column by column were a third of the page's work); built once per isolate.
 */
const stretchQuery = (db: Database, person: boolean) =>
  preparedOnce(db, `office-day:${person ? "provider" : "business"}`, (db) => {
    const p = bookingProviders;
    const claimed = db
      .select({ id: p.bookingId })
      .from(p)
      .where(and(eq(p.businessId, sql.placeholder("businessId")), eq(p.providerId, sql.placeholder("providerId"))));
    const s = db
      .select(drawn)
      .from(bookings)
      .where(and(...startingWithin(), person ? inArray(bookings.id, claimed) : undefined))
      .orderBy(desc(bookings.startTime), desc(bookings.id))
      .limit(sql.placeholder("limit"))
      .as("stretch");
    const row = sql`json_array(${s.id}, ${s.serviceId}, ${s.providerId}, json(${s.providerIds}), json(${s.resourceIds}), ${s.customerName}, ${s.startTime}, ${s.endTime}, ${s.status}, ${s.updatedAt})`;
    return db
      .select({ rows: sql<string>`json_group_array(${row})` })
      .from(s)
      .prepare() as PreparedRead<{ rows: string }[]>;
  });

/** A row as the day uses it (records from before teams name their one person only). */
const toDayBooking = ([
  id,
  serviceId,
  providerId,
  providerIds,
  resourceIds,
  customerName,
  startTime,
  endTime,
  status,
  updatedAt,
]: DrawnRow) => ({
  id,
  serviceId,
  providerIds: providerIds ?? (providerId ? [providerId] : []),
  resourceIds: resourceIds ?? [],
  customerName,
  startTime,
  endTime,
  start: Date.parse(startTime),
  end: Date.parse(endTime),
  status,
  updatedAt,
});

/**
 * The bookings starting within [from, to): the business's, or for staff (and for `providerId`'s
 * week) one person's, after the role check of the list they would read through the API; and the
 * `alongside` reads' rows (bound to `businessId`, `from` and `to` as well), all in one D1 round
 * trip, and one more for the bookings' conflicts when the business has an open one.
 */
export async function bookingsWithin<const T extends readonly PreparedRead<unknown>[]>(
  c: DeskContext,
  from: number,
  to: number,
  providerId: string | undefined,
  alongside: T,
) {
  const { businessId, member } = c.var.caller;
  const own = member?.role === "staff" ? (member.providerId ?? "") : undefined;
  const person = providerId ?? own;
  if (person === undefined) await authorise(c, "bookings:read", "GET /bookings");
  else await authorise(c, "bookings:read", "GET /providers/:id/bookings", person);
  const { db } = c.var;
  const values = {
    businessId,
    providerId: person,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    limit: MAX_SHOWN + 1,
  };
  const [[stretch], open, ...more] = await batchReader(asApp(c))([
    bind(stretchQuery(db, person !== undefined), values),
    bind(anyOpenConflict(db), { businessId }),
    ...alongside.map((read) => bind(read, values)),
  ]);
  const rows: DrawnRow[] = JSON.parse(stretch?.rows ?? "[]");
  const found = rows.slice(0, MAX_SHOWN).map(toDayBooking);
  const items: DayBooking[] =
    open.length > 0 ? await withConflicts(db, businessId, found) : found.map((b) => ({ ...b, conflicts: [] }));
  return { items, capped: rows.length > MAX_SHOWN, alongside: more as unknown as RowsOf<T> };
}

/** The rows each prepared read answers. */
type RowsOf<T extends readonly PreparedRead<unknown>[]> = {
  -readonly [K in keyof T]: T[K] extends PreparedRead<infer R> ? R : never;
};
