/**
 * Writes calendar bookings to D1: the customer upserted by e-mail, the booking upserted by id.
 * Replays are harmless — D1 keeps the highest version and never lets an old copy win.
 */
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { SQLiteInsertValue } from "drizzle-orm/sqlite-core";
import { auditWrite } from "../../audit/booking-events";
import { type BookingEvent, eventWrites } from "../../audit/events";
import { createDb, type Database } from "../../db/client";
import { bind, type PreparedRead, preparedOnce, readBatch } from "../../db/prepared";
import { bookings, customers, holds } from "../../db/schema";
import { newId } from "../../lib/ids";
import { messageWrites } from "../../messages/records";
import type { BookingRecord } from "../../types/booking";
import { assignmentIds, assignmentWrites } from "./booking-assignments";
import type { PersistOutcome } from "./outbox";

/** How long a D1 write may take before the booking is left to the outbox alarm. */
const D1_WRITE_TIMEOUT_MS = 5_000;

/** A booking as the calendar stores it (the domain's record). */
export type StoredBooking = BookingRecord;

const p = sql.placeholder;

/** What a newer version of a booking changes in D1 (a reschedule moves the times and may change the people). */
const NEWER_VERSION_CHANGES = [
  "status",
  "startTime",
  "endTime",
  "providerId",
  "providerIds",
  "resourceIds",
  "notes",
  "answers",
  "version",
  "updatedAt",
  "cancelledAt",
  "cancellationReason",
] as const;

/**
 * A booking's customer upsert and row upsert, and the read-back of a business's bookings'
 * customers, prepared once per handle and bound per booking (per business for the read-back): the
 * same SQL for every row, which Drizzle otherwise built anew for each (a third of a 12-occurrence
 * series' CPU; docs/performance.md, "Visits and series, profiled").
 */
function bookingWrites(db: Database) {
  return preparedOnce(db, "persist.booking", (db) => {
    const customerOf = sql`(SELECT id FROM customers WHERE business_id = ${p("businessId")} AND email_normalized = ${p("emailNormalized")})`;
    // Every column from its placeholder of the same name, but the customer: D1's, by e-mail.
    const row = Object.fromEntries(
      Object.keys(getTableColumns(bookings)).map((key) => [key, key === "customerId" ? customerOf : p(key)]),
    ) as SQLiteInsertValue<typeof bookings>;
    return [
      db
        .insert(customers)
        .values({
          // The id may already name another customer row: one erased, or whose e-mail changed after
          // this booking looked it up. Then the e-mail gets a customer of its own.
          id: sql`CASE WHEN EXISTS (SELECT 1 FROM ${customers} WHERE ${customers.id} = ${p("customerId")}) THEN ${p("newCustomerId")} ELSE ${p("customerId")} END`,
          businessId: p("businessId"),
          name: p("customerName"),
          email: p("customerEmail"),
          emailNormalized: p("emailNormalized"),
          nameNormalized: p("nameNormalized"),
          phone: p("customerPhone"),
          createdAt: p("createdAt"),
          updatedAt: p("createdAt"),
        })
        .onConflictDoUpdate({
          target: [customers.businessId, customers.emailNormalized],
          // The latest booking's details win, but a replay of an older booking never overwrites newer ones.
          set: {
            name: sql`excluded.name`,
            nameNormalized: sql`excluded.name_normalized`,
            phone: sql`coalesce(excluded.phone, ${customers.phone})`,
            updatedAt: sql`excluded.updated_at`,
          },
          setWhere: sql`excluded.updated_at > ${customers.updatedAt}`,
        })
        .prepare(),
      db
        .insert(bookings)
        .values(row)
        .onConflictDoUpdate({
          target: bookings.id,
          set: Object.fromEntries(NEWER_VERSION_CHANGES.map((key) => [key, sql.raw(`excluded.${bookings[key].name}`)])),
          setWhere: sql`excluded.version > ${bookings.version}`,
        })
        .prepare(),
      db
        .select({ id: bookings.id, customerId: bookings.customerId })
        .from(bookings)
        // Found by id (`+` keeps SQLite off the business's index, which would read all its bookings).
        .where(
          sql`${bookings.id} IN (SELECT value FROM json_each(${p("ids")})) AND +${bookings.businessId} = ${p("businessId")}`,
        )
        .prepare(),
    ] as const;
  });
}

/** A hold's D1 row ended by the booking made from it. */
const holdEnd = (db: Database) =>
  preparedOnce(db, "persist.holdEnd", (db) =>
    db
      .update(holds)
      .set({ endedAt: sql`${p("endedAt")}` })
      .where(and(eq(holds.id, p("holdId")), isNull(holds.endedAt)))
      .prepare(),
  );

/** Every booking column, null: what a record without a field binds for it. */
const absent = Object.fromEntries(Object.keys(getTableColumns(bookings)).map((key) => [key, null]));

/** What a customer upsert is bound with but the fresh id (used only where the row is new): equal keys, equal upserts. */
const customerKey = (v: Record<string, unknown>) =>
  JSON.stringify(
    [
      "businessId",
      "customerId",
      "customerName",
      "customerEmail",
      "emailNormalized",
      "nameNormalized",
      "customerPhone",
      "createdAt",
    ].map((key) => v[key] ?? null),
  );

/** The values a booking's statements are bound with. */
function valuesOf({ holdId: _holdId, ...record }: StoredBooking): Record<string, unknown> {
  const present = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
  // Records older than teams and resources name their one provider only.
  return {
    ...absent,
    ...present,
    providerIds: record.providerIds ?? (record.providerId ? [record.providerId] : []),
    resourceIds: record.resourceIds ?? [],
    answers: record.answers ?? {},
    emailNormalized: record.customerEmail.toLowerCase(),
    nameNormalized: record.customerName.toLowerCase(),
    newCustomerId: newId("customer"),
  };
}

/**
 * Persists bookings, their webhook events, their audit records and their messages to customers in one D1 batch;
 * returns each booking's customer id as D1 resolved it, and the events that have at least one
 * delivery or message to send. The batch runs `through` a session of `d1` where one is given;
 * its queries are prepared once on `d1`'s handle.
 */
export async function persistBookings(
  d1: D1Database,
  records: StoredBooking[],
  events: BookingEvent[] = [],
  through: Pick<D1Database, "prepare" | "batch"> = d1,
): Promise<{ customerIds: Map<string, string>; eventsWithDeliveries: Set<string> }> {
  if (records.length === 0 && events.length === 0) return { customerIds: new Map(), eventsWithDeliveries: new Set() };
  const db = createDb(d1);
  const [customerUpsert, bookingUpsert, readBack] = bookingWrites(db);
  // Each record's customer (unless the batch upserts the same already: the same statement again
  // changes nothing), then its booking.
  const upserted = new Set<string>();
  const statements = records.flatMap((record) => {
    const values = valuesOf(record);
    const customer = customerKey(values);
    const again = upserted.has(customer);
    upserted.add(customer);
    return again
      ? [bind<unknown>(bookingUpsert, values)]
      : [bind<unknown>(customerUpsert, values), bind<unknown>(bookingUpsert, values)];
  });
  // Then, once for the whole batch: each business's bookings' customers as D1 resolved them, and
  // every booking's people and resources rebuilt from its row.
  const byBusiness = Map.groupBy(records, (r) => r.businessId);
  const readBacks = [...byBusiness].map(([businessId, rows]) =>
    bind<unknown>(readBack, { businessId, ids: JSON.stringify(rows.map((r) => r.id)) }),
  );
  const ids = assignmentIds(records.map((r) => r.id));
  const assignments = records.length > 0 ? assignmentWrites(db).map((query) => bind<unknown>(query, ids)) : [];
  // Each event's statements: its audit record, the event, its deliveries, its message, then what it
  // sends (the last, which counts the deliveries too: the events' own count of them is not sent).
  const perEvent: PreparedRead<unknown>[] = [auditWrite(db), ...eventWrites(db).slice(0, 2), ...messageWrites(db)];
  const eventParts = events.map((event) =>
    perEvent.map((query) => bind(query, { ...event, audit: event.audit ?? null })),
  );
  const holdsEnded = records.flatMap((b) =>
    b.holdId ? [bind<unknown>(holdEnd(db), { holdId: b.holdId, endedAt: b.createdAt })] : [],
  );
  const written = [...statements, ...readBacks, ...assignments];
  const results = (await readBatch(through as D1Database, [
    ...written,
    ...eventParts.flat(),
    ...holdsEnded,
  ])) as unknown[];
  const customerIds = new Map<string, string>();
  for (let i = statements.length; i < statements.length + readBacks.length; i++) {
    for (const row of results[i] as { id: string; customerId: string | null }[]) {
      if (row.customerId) customerIds.set(row.id, row.customerId);
    }
  }
  // Each event's last statement counts its deliveries and messages: an event with neither needs no queue.
  const eventsWithDeliveries = new Set<string>();
  let index = written.length;
  for (const [i, part] of eventParts.entries()) {
    index += part.length;
    const [row] = results[index - 1] as { deliveries: number }[];
    if ((row?.deliveries ?? 0) > 0) eventsWithDeliveries.add((events[i] as BookingEvent).id);
  }
  return { customerIds, eventsWithDeliveries };
}

/** Writes bookings and their events to D1; never throws (a failure is an outcome). */
export type D1Writer = (records: StoredBooking[], events: BookingEvent[]) => Promise<PersistOutcome>;

/**
 * The production writer: `persistBookings` on `database`, bounded in time. Each write goes through
 * its own session on the primary, whose bookmark it answers: the calendar hands it back to the
 * request that waited for the write (src/shards/object-shard.ts), so the request's answer
 * carries a bookmark that covers it without reading D1 once more (src/shards/session.ts).
 */
export function d1Writer(database: D1Database): D1Writer {
  return async (records, events) => {
    const session = database.withSession("first-primary");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("D1 write timed out")), D1_WRITE_TIMEOUT_MS);
    });
    try {
      const written = await Promise.race([persistBookings(database, records, events, session), timeout]);
      return { ok: true, ...written, bookmark: session.getBookmark() };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
}
