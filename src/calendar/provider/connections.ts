/**
 * The calendars a person connected (`calendars` table) and their sync state, as the API shows
 * them. Every method runs inside the caller's transaction; the bound on calendars per person is
 * counted and written in one statement.
 */
import { retryDelayMs } from "../alarm-clock";

/** Calendars one person may connect. */
export const MAX_CALENDARS = 5;
/** How often a calendar is read when nothing asks sooner. */
export const SYNC_EVERY_MS = 5 * 60_000;

/** Where a calendar stands: never read yet, read, or failing since `failingSince` (keeping its last busy times). */
export type SyncStatus = "pending" | "ok" | "failing";

/** A row of `calendars`. */
export type CalendarRow = {
  id: string;
  type: "caldav";
  url: string;
  credentials: string | null;
  write_bookings: number;
  created_ms: number;
  status: SyncStatus;
  last_error: string | null;
  failing_since_ms: number | null;
  failures: number;
  last_synced_ms: number | null;
  next_sync_ms: number;
  marker: string | null;
  listed_ms: number | null;
  busy_until_ms: number | null;
  skipped: number;
};

/** A connected calendar as the API answers it (credentials never leave the object). */
export type ConnectedCalendar = {
  id: string;
  type: "caldav";
  url: string;
  writeBookings: boolean;
  hasCredentials: boolean;
  syncStatus: SyncStatus;
  lastSyncedAt: string | null;
  lastError: string | null;
  failingSince: string | null;
  busyUntil: string | null;
  eventsSkipped: number;
  createdAt: string;
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const calendarViewOf = (row: CalendarRow): ConnectedCalendar => ({
  id: row.id,
  type: row.type,
  url: row.url,
  writeBookings: row.write_bookings === 1,
  hasCredentials: row.credentials !== null,
  syncStatus: row.status,
  lastSyncedAt: iso(row.last_synced_ms),
  lastError: row.last_error,
  failingSince: iso(row.failing_since_ms),
  busyUntil: iso(row.busy_until_ms),
  eventsSkipped: row.skipped,
  createdAt: new Date(row.created_ms).toISOString(),
});

/** A calendar to connect: its id, address, sealed credentials and whether bookings are written to it. */
export type NewCalendar = { id: string; url: string; credentials: string | null; writeBookings: boolean };

/** What a successful read of a calendar stores about itself. */
export type SyncedState = { marker: string | null; listed?: { at: number; until: number }; skipped?: number };

export class Connections {
  constructor(private readonly sql: SqlStorage) {}

  /** Adds a calendar unless the person has `MAX_CALENDARS` already (counted in the same statement). */
  add(calendar: NewCalendar, now: number): boolean {
    return (
      this.sql.exec(
        `INSERT INTO calendars (id, type, url, credentials, write_bookings, created_ms, status, next_sync_ms)
         SELECT ?, 'caldav', ?, ?, ?, ?, 'pending', ? WHERE (SELECT count(*) FROM calendars) < ?`,
        calendar.id,
        calendar.url,
        calendar.credentials,
        calendar.writeBookings ? 1 : 0,
        now,
        now,
        MAX_CALENDARS,
      ).rowsWritten > 0
    );
  }

  remove(id: string): boolean {
    return this.sql.exec("DELETE FROM calendars WHERE id = ?", id).rowsWritten > 0;
  }

  find(id: string): CalendarRow | undefined {
    return this.sql.exec<CalendarRow>("SELECT * FROM calendars WHERE id = ?", id).toArray()[0];
  }

  all(): CalendarRow[] {
    return this.sql.exec<CalendarRow>("SELECT * FROM calendars ORDER BY created_ms, id").toArray();
  }

  /** The ids of the calendars bookings are written to. */
  writers(): string[] {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM calendars WHERE write_bookings = 1 ORDER BY id")
      .toArray()
      .map((r) => r.id);
  }

  /** Calendars whose next read is due. */
  due(now: number): CalendarRow[] {
    return this.sql
      .exec<CalendarRow>("SELECT * FROM calendars WHERE next_sync_ms <= ? ORDER BY next_sync_ms", now)
      .toArray();
  }

  /** Puts the next read `ms` ahead: a read under way that a reset ends is re-driven then. */
  lease(id: string, at: number): void {
    this.sql.exec("UPDATE calendars SET next_sync_ms = ? WHERE id = ?", at, id);
  }

  /** A read succeeded: the calendar is `ok`, its outage (if any) over, the next read in 5 minutes. */
  succeeded(id: string, state: SyncedState, now: number): void {
    this.sql.exec(
      `UPDATE calendars SET status = 'ok', last_error = NULL, failing_since_ms = NULL, failures = 0,
         last_synced_ms = ?, next_sync_ms = ?, marker = ?,
         listed_ms = coalesce(?, listed_ms), busy_until_ms = coalesce(?, busy_until_ms), skipped = coalesce(?, skipped)
       WHERE id = ?`,
      now,
      now + SYNC_EVERY_MS,
      state.marker,
      state.listed?.at ?? null,
      state.listed?.until ?? null,
      state.skipped ?? null,
      id,
    );
  }

  /**
   * A read failed: the calendar is `failing` (its busy spans stay) and is tried again with backoff
   * (1 s, 2 s, 4 s … 5 minutes). Answers whether this failure began an outage.
   */
  failed(id: string, error: string, now: number): boolean {
    const row = this.find(id);
    if (!row) return false;
    this.sql.exec(
      `UPDATE calendars SET status = 'failing', last_error = ?, failing_since_ms = coalesce(failing_since_ms, ?),
         failures = failures + 1, next_sync_ms = ? WHERE id = ?`,
      error.slice(0, 500),
      now,
      now + retryDelayMs(row.failures + 1),
      id,
    );
    return row.failing_since_ms === null;
  }

  /** When the next read is due, or null with no calendar. */
  nextDue(): number | null {
    return this.sql.exec<{ at: number | null }>("SELECT min(next_sync_ms) AS at FROM calendars").one().at;
  }
}
