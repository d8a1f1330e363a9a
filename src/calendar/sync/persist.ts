/**
 * Writes calendar bookings to D1: the customer upserted by e-mail, the booking upserted by id.
 * Replays are harmless — D1 keeps the highest version and never lets an old copy win.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { createDb, type Database } from "../../db/client";
import { bookings, customers, holds } from "../../db/schema";
import type { BookingRecord } from "../../domain/booking";
import { newId } from "../../lib/ids";
import { type BookingEvent, eventStatements } from "../../webhooks/events";
import { linkStatements } from "./booking-links";
import type { PersistOutcome } from "./outbox";

/** How long a D1 write may take before the booking is left to the outbox alarm. */
const D1_WRITE_TIMEOUT_MS = 5_000;

/** A booking as the calendar stores it (the domain's record). */
export type StoredBooking = BookingRecord;

/**
 * Persists bookings and their webhook events in one D1 batch; returns each booking's customer
 * id as D1 resolved it, and the events that have at least one delivery to make.
 */
export async function persistBookings(
  db: Database,
  records: StoredBooking[],
  events: BookingEvent[] = [],
): Promise<{ customerIds: Map<string, string>; eventsWithDeliveries: Set<string> }> {
  const statements = records.flatMap(({ holdId: _holdId, ...record }) => {
    // Records older than teams and resources name their one provider only.
    const b = {
      ...record,
      providerIds: record.providerIds ?? (record.providerId ? [record.providerId] : []),
      resourceIds: record.resourceIds ?? [],
      answers: record.answers ?? {},
    };
    const email = b.customerEmail.toLowerCase();
    const customerOf = sql`(SELECT id FROM customers WHERE business_id = ${b.businessId} AND email_normalized = ${email})`;
    return [
      db
        .insert(customers)
        .values({
          // The id may already name another customer row: one erased, or whose e-mail changed after
          // this booking looked it up. Then the e-mail gets a customer of its own.
          id: sql`CASE WHEN EXISTS (SELECT 1 FROM ${customers} WHERE ${customers.id} = ${b.customerId}) THEN ${newId("customer")} ELSE ${b.customerId} END`,
          businessId: b.businessId,
          name: b.customerName,
          email: b.customerEmail,
          emailNormalized: email,
          nameNormalized: b.customerName.toLowerCase(),
          phone: b.customerPhone,
          createdAt: b.createdAt,
          updatedAt: b.createdAt,
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
        }),
      db
        .insert(bookings)
        .values({ ...b, customerId: customerOf })
        .onConflictDoUpdate({
          target: bookings.id,
          set: {
            status: sql`excluded.status`,
            // A reschedule moves the times and may change the provider.
            startTime: sql`excluded.start_time`,
            endTime: sql`excluded.end_time`,
            providerId: sql`excluded.provider_id`,
            providerIds: sql`excluded.provider_ids`,
            resourceIds: sql`excluded.resource_ids`,
            notes: sql`excluded.notes`,
            answers: sql`excluded.answers`,
            version: sql`excluded.version`,
            updatedAt: sql`excluded.updated_at`,
            cancelledAt: sql`excluded.cancelled_at`,
            cancellationReason: sql`excluded.cancellation_reason`,
          },
          setWhere: sql`excluded.version > ${bookings.version}`,
        }),
      db
        .select({ id: bookings.id, customerId: bookings.customerId })
        .from(bookings)
        .where(and(eq(bookings.businessId, b.businessId), eq(bookings.id, b.id))),
      ...linkStatements(db, b.id),
    ];
  });
  const eventParts = events.map((event) => eventStatements(db, event));
  const holdsEnded = records.flatMap((b) =>
    b.holdId
      ? [
          db
            .update(holds)
            .set({ endedAt: b.createdAt })
            .where(and(eq(holds.id, b.holdId), isNull(holds.endedAt))),
        ]
      : [],
  );
  const [first, ...rest] = [...statements, ...eventParts.flat(), ...holdsEnded];
  if (!first) return { customerIds: new Map(), eventsWithDeliveries: new Set() };
  const results = (await db.batch([first, ...rest])) as unknown[];
  const customerIds = new Map<string, string>();
  // Each record's statements: customer, booking, its read-back (the third), then its links.
  const perRecord = statements.length / Math.max(records.length, 1);
  for (let i = 2; i < records.length * perRecord; i += perRecord) {
    const [row] = results[i] as { id: string; customerId: string }[];
    if (row) customerIds.set(row.id, row.customerId);
  }
  // Each event's last statement counts its deliveries: an event nobody subscribed to needs no queue.
  const eventsWithDeliveries = new Set<string>();
  let index = statements.length;
  for (const [i, part] of eventParts.entries()) {
    index += part.length;
    const [row] = results[index - 1] as { deliveries: number }[];
    if ((row?.deliveries ?? 0) > 0) eventsWithDeliveries.add((events[i] as BookingEvent).id);
  }
  return { customerIds, eventsWithDeliveries };
}

/** Writes bookings and their events to D1; never throws (a failure is an outcome). */
export type D1Writer = (records: StoredBooking[], events: BookingEvent[]) => Promise<PersistOutcome>;

/** The production writer: `persistBookings` on `database`, bounded in time. */
export function d1Writer(database: D1Database): D1Writer {
  return async (records, events) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("D1 write timed out")), D1_WRITE_TIMEOUT_MS);
    });
    try {
      const written = await Promise.race([persistBookings(createDb(database), records, events), timeout]);
      return { ok: true, ...written };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
}
