import { auditOutboxMigration } from "../../audit-outbox";
import { limitMigration } from "../../limits/storage";

/**
 * The calendar's own SQLite tables. Reservations carry the blocked span (booking plus
 * buffers) so capacity checks are one indexed range scan over the overlapping bookings only.
 */
export const serviceMigrations: string[] = [
  `CREATE TABLE bookings (
     id TEXT PRIMARY KEY,
     start_ms INTEGER NOT NULL,
     blocked_start_ms INTEGER NOT NULL,
     blocked_end_ms INTEGER NOT NULL,
     status TEXT NOT NULL,
     version INTEGER NOT NULL,
     record TEXT NOT NULL
   );
   CREATE INDEX bookings_active_blocked ON bookings (blocked_start_ms, blocked_end_ms)
     WHERE status IN ('PENDING', 'CONFIRMED');
   CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
   INSERT INTO counters (name, value) VALUES
     ('PENDING', 0), ('CONFIRMED', 0), ('CANCELLED', 0), ('COMPLETED', 0), ('NO_SHOW', 0);
   CREATE TABLE idempotency (
     key TEXT PRIMARY KEY,
     request_hash TEXT NOT NULL,
     booking_id TEXT NOT NULL,
     created_ms INTEGER NOT NULL
   );
   CREATE INDEX idempotency_created ON idempotency (created_ms);
   CREATE TABLE outbox (
     booking_id TEXT PRIMARY KEY,
     version INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_ms INTEGER NOT NULL,
     last_error TEXT
   );
   CREATE INDEX outbox_due ON outbox (next_attempt_ms);
   CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
   INSERT INTO meta (key, value) VALUES ('max_blocked_ms', 0);`,
  // Webhook events: 'd1' until written with their booking, then 'queue' until the queue has them.
  `CREATE TABLE events (
     id TEXT PRIMARY KEY,
     business_id TEXT NOT NULL,
     type TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_at TEXT NOT NULL,
     stage TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     next_attempt_ms INTEGER NOT NULL,
     last_error TEXT
   );
   CREATE INDEX events_stage ON events (stage, next_attempt_ms);`,
  // The booking's start is in the record; the column was never read.
  "ALTER TABLE bookings DROP COLUMN start_ms;",
  // Providers: who performs a booking, and rows still waiting for the provider calendar's answer
  // (tentative until the deadline; the alarm releases them). Releases owed to provider calendars.
  // `kind`: 'booking', 'move' (the new time of a booking being rescheduled, held while the
  // provider calendar decides) or 'hold' (a seat kept until `expires_ms`; its state in `holds`).
  // A provider task is a release, or the confirmation of a hold's claim once it became a booking.
  `ALTER TABLE bookings ADD COLUMN kind TEXT NOT NULL DEFAULT 'booking';
   ALTER TABLE bookings ADD COLUMN provider_id TEXT;
   ALTER TABLE bookings ADD COLUMN claim_id TEXT;
   ALTER TABLE bookings ADD COLUMN tentative_until_ms INTEGER;
   CREATE INDEX bookings_provider_blocked ON bookings (provider_id, blocked_start_ms, blocked_end_ms)
     WHERE status IN ('PENDING', 'CONFIRMED') AND provider_id IS NOT NULL;
   CREATE INDEX bookings_tentative ON bookings (tentative_until_ms) WHERE tentative_until_ms IS NOT NULL;
   ALTER TABLE bookings ADD COLUMN expires_ms INTEGER;
   CREATE INDEX bookings_expiring ON bookings (expires_ms) WHERE expires_ms IS NOT NULL;
   CREATE TABLE holds (id TEXT PRIMARY KEY, status TEXT NOT NULL, expires_ms INTEGER NOT NULL, record TEXT NOT NULL);
   CREATE TABLE provider_releases (
     claim_id TEXT PRIMARY KEY,
     business_id TEXT NOT NULL,
     provider_id TEXT NOT NULL,
     action TEXT NOT NULL DEFAULT 'release',
     claim TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_ms INTEGER NOT NULL,
     last_error TEXT
   );
   CREATE INDEX provider_releases_due ON provider_releases (next_attempt_ms);`,
  // When an outbox entry was first queued, for reconciliation's bound (0 = queued before this).
  "ALTER TABLE outbox ADD COLUMN queued_ms INTEGER NOT NULL DEFAULT 0;",
  // The claim protocol with any number of claimed calendars: a row lists the claims it holds
  // (people, resources); what is owed to those calendars is a task keyed by calendar and claim.
  `ALTER TABLE bookings ADD COLUMN claims TEXT NOT NULL DEFAULT '[]';
   UPDATE bookings SET claims = json_array(json_object('calendar', 'provider', 'id', provider_id, 'claimId', claim_id))
     WHERE claim_id IS NOT NULL AND provider_id IS NOT NULL;
   ALTER TABLE bookings DROP COLUMN claim_id;
   CREATE TABLE claim_tasks (
     calendar TEXT NOT NULL,
     target_id TEXT NOT NULL,
     claim_id TEXT NOT NULL,
     business_id TEXT NOT NULL,
     action TEXT NOT NULL,
     payload TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_ms INTEGER NOT NULL,
     last_error TEXT,
     PRIMARY KEY (calendar, target_id, claim_id)
   );
   CREATE INDEX claim_tasks_due ON claim_tasks (next_attempt_ms);
   INSERT INTO claim_tasks (calendar, target_id, claim_id, business_id, action, payload, attempts, next_attempt_ms, last_error)
     SELECT 'provider', provider_id, claim_id, business_id, action, claim, attempts, next_attempt_ms, last_error
     FROM provider_releases;
   DROP TABLE provider_releases;`,
  // Reminders still to send: one row per booking and offset, due at start − offset.
  `CREATE TABLE reminders (
     booking_id TEXT NOT NULL,
     offset_minutes INTEGER NOT NULL,
     due_ms INTEGER NOT NULL,
     PRIMARY KEY (booking_id, offset_minutes)
   );
   CREATE INDEX reminders_due ON reminders (due_ms);`,
  // Visits: tombstones of seat claims released here (a late duplicate is refused), and the
  // answer of each visit this calendar was the entry of, for its Idempotency-Key's replays.
  `CREATE TABLE released_claims (claim_id TEXT PRIMARY KEY, released_ms INTEGER NOT NULL);
   CREATE TABLE visits (id TEXT PRIMARY KEY, bookings TEXT NOT NULL, created_ms INTEGER NOT NULL);`,
  // The waitlist (tables/waitlist.ts): entries queued for a full slot, and what their offers' holds are placed with.
  `CREATE TABLE waitlist (
     id TEXT PRIMARY KEY,
     business_id TEXT NOT NULL,
     api_key_id TEXT NOT NULL,
     start_ms INTEGER NOT NULL,
     end_ms INTEGER NOT NULL,
     provider_id TEXT,
     status TEXT NOT NULL,
     hold_id TEXT,
     record TEXT NOT NULL
   );
   CREATE INDEX waitlist_slot ON waitlist (status, start_ms, end_ms, provider_id, id);
   CREATE INDEX waitlist_hold ON waitlist (hold_id) WHERE hold_id IS NOT NULL;
   CREATE TABLE waitlist_context (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, context TEXT NOT NULL);`,
  // What an event mails the customer (src/types/message.ts `MailPlan`, JSON), decided with the change.
  "ALTER TABLE events ADD COLUMN mail TEXT;",
  // Booking limits and balanced assignment (limits/counts.ts): see limitMigration.
  limitMigration,
  // Who made an event's change and the fields it set (src/audit/booking-events.ts), JSON; null: the system.
  "ALTER TABLE events ADD COLUMN audit TEXT;",
  // The audit's records of changes kept here only (a waitlist entry left) until D1 has them.
  auditOutboxMigration,
];
