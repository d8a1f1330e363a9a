import { auditOutboxMigration } from "../audit-outbox";
import { conflictsMigration } from "./conflict-store";

/**
 * The tables a person's calendar object keeps for their own calendars (CalDAV), after the
 * claimed calendar's: each connected calendar and its sync state (`calendars`), the members seen
 * in its window with their ETags (`members`), the busy spans they give (`busy`, indexed by start
 * like claims, bounded below by the longest span stored), the outbox of booking events to write
 * (`booking_events`), which booking a hold's claim became (`claim_bookings`), and the outbox of
 * `calendar.sync_failed` webhook events (`calendar_events`); then the bookings' conflicts (`conflicts`).
 */
/** Which booking a hold's claim became (a room's object keeps it too, for its conflicts). */
export const claimBookingsTable = `CREATE TABLE claim_bookings (claim_id TEXT PRIMARY KEY, booking_id TEXT NOT NULL);
   CREATE INDEX claim_bookings_booking ON claim_bookings (booking_id);`;

/** The outbox of webhook events a person's or a room's object raises (calendar-events.ts). */
export const calendarEventsTable = `CREATE TABLE calendar_events (
     id TEXT PRIMARY KEY,
     business_id TEXT NOT NULL,
     type TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_at TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_ms INTEGER NOT NULL,
     last_error TEXT
   );`;

export const connectedCalendarMigrations: string[] = [
  `CREATE TABLE calendars (
     id TEXT PRIMARY KEY,
     type TEXT NOT NULL,
     url TEXT NOT NULL,
     credentials TEXT,
     write_bookings INTEGER NOT NULL,
     created_ms INTEGER NOT NULL,
     status TEXT NOT NULL,
     last_error TEXT,
     failing_since_ms INTEGER,
     failures INTEGER NOT NULL DEFAULT 0,
     last_synced_ms INTEGER,
     next_sync_ms INTEGER NOT NULL,
     marker TEXT,
     listed_ms INTEGER,
     busy_until_ms INTEGER,
     skipped INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE members (
     calendar_id TEXT NOT NULL,
     path TEXT NOT NULL,
     etag TEXT,
     kind TEXT NOT NULL,
     continues INTEGER NOT NULL,
     PRIMARY KEY (calendar_id, path)
   );
   CREATE TABLE busy (
     calendar_id TEXT NOT NULL,
     path TEXT NOT NULL,
     start_ms INTEGER NOT NULL,
     end_ms INTEGER NOT NULL
   );
   CREATE INDEX busy_start ON busy (start_ms, end_ms);
   CREATE INDEX busy_member ON busy (calendar_id, path);
   CREATE INDEX busy_end ON busy (end_ms);
   INSERT INTO meta (key, value) VALUES ('max_busy_ms', 0) ON CONFLICT (key) DO NOTHING;
   CREATE TABLE booking_events (
     calendar_id TEXT NOT NULL,
     booking_id TEXT NOT NULL,
     service_id TEXT NOT NULL,
     start_ms INTEGER,
     end_ms INTEGER,
     version INTEGER NOT NULL,
     written_version INTEGER NOT NULL DEFAULT 0,
     etag TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_ms INTEGER,
     last_error TEXT,
     PRIMARY KEY (calendar_id, booking_id)
   );
   CREATE INDEX booking_events_due ON booking_events (next_attempt_ms) WHERE next_attempt_ms IS NOT NULL;
   CREATE INDEX booking_events_end ON booking_events (end_ms);
   ${claimBookingsTable}
   ${calendarEventsTable}`,
  // The conflicts their busy times make with their bookings (conflict-store.ts).
  conflictsMigration,
  // The audit's records of connecting and disconnecting, until D1 has them (audit-outbox.ts).
  auditOutboxMigration,
];
