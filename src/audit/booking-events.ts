/**
 * The audit of calendar changes. A booking's change raises its event in the calendar's own
 * transaction; the event row carries who made the change and the fields it set (`audit`), and the
 * write-behind that takes the booking row to D1 writes the audit record in that same batch. So a
 * reset between the change and its record loses neither: both wait in the calendar until D1 has
 * both. The record's id is the event's (`evt_…` → `aud_…`), so a replayed batch writes it once.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { preparedOnce } from "../db/prepared";
import { auditEvents, businesses } from "../db/schema";
import type { Actor } from "../types/actor";

/** A change as the calendar hears of it: who asks (absent: the system) and the fields it sets. */
export type ChangeOf = { actor?: Actor; fields?: string[] };

/**
 * A customer acting through their manage link or a booking page: named by the booking, never by
 * their name, e-mail or phone. For a booking still to be made, the calendar fills in its id.
 */
export const customerActor = (bookingId = ""): Actor => ({ type: "customer", id: bookingId });

/** The event's `audit` value: the actor (a customer's id is the booking's, never the person) and the fields. */
export function auditOf({ actor, fields = [] }: ChangeOf, bookingId: string): string | null {
  if (actor === undefined && fields.length === 0) return null;
  const who = actor?.type === "customer" ? { type: "customer", id: bookingId } : actor;
  return JSON.stringify({ actor: who ?? { type: "system", id: "system" }, fields: [...fields].sort() });
}

/** Events that record a change (a reminder changes nothing), and the resource each is about. */
const AUDITED = `('booking.created', 'booking.updated', 'booking.cancelled', 'booking.rescheduled', 'waitlist.offered')`;

/**
 * The statement that writes an event's audit record, prepared once per handle and bound with the
 * event's fields (beside `eventWrites` in the write-behind's batch).
 */
export function auditWrite(db: Database) {
  const p = sql.placeholder;
  const audit = p("audit");
  const type = p("type");
  return preparedOnce(db, "persist.audit", (db) =>
    db
      .insert(auditEvents)
      .select(
        db
          .select({
            id: sql<string>`'aud_' || substr(${p("id")}, 5)`.as("id"),
            businessId: businesses.id,
            at: sql<string>`${p("createdAt")}`.as("at"),
            actorType: sql<Actor["type"]>`coalesce(json_extract(${audit}, '$.actor.type'), 'system')`.as("actor_type"),
            actorId: sql<string>`coalesce(json_extract(${audit}, '$.actor.id'), 'system')`.as("actor_id"),
            action: sql<string>`${type}`.as("action"),
            resourceType: sql<string>`CASE WHEN ${type} LIKE 'waitlist.%' THEN 'waitlist' ELSE 'booking' END`.as(
              "resource_type",
            ),
            resourceId: sql<string>`json_extract(${p("payload")}, '$.data.id')`.as("resource_id"),
            fields: sql<string[]>`coalesce(json_extract(${audit}, '$.fields'), '[]')`.as("fields"),
          })
          .from(businesses)
          .where(and(eq(businesses.id, p("businessId")), sql`${type} IN ${sql.raw(AUDITED)}`)),
      )
      .onConflictDoNothing()
      .prepare(),
  );
}
