/**
 * A person's own calendars inside their calendar object: connecting and disconnecting them, the
 * busy spans they give (checked by every claim and read by the slot calendar), reading them (by
 * the alarm every 5 minutes and on demand), writing the person's bookings into those that ask
 * for it, and the webhook events of their outages. Its tables are versioned on their own
 * (`meta.staff_calendars_schema`), apart from the claimed calendar's migrations.
 */

import type { AuditRow } from "../../audit/record";
import { unseal } from "../../lib/sealed";
import { AuditOutbox, writeDueAudit } from "../audit-outbox";
import type { ClaimRefusal, ClaimSpan, ProviderSnapshot } from "../claim-types";
import { CALENDAR_SECRET_PURPOSE, type SealedCredentials } from "../connected/credentials";
import type { CaldavAccess, Fetcher } from "../connected/http";
import { BookingWrites } from "./booking-writes";
import { BusyStore } from "./busy-store";
import { CalendarEvents, publishDueEvents } from "./calendar-events";
import { detectHours, hoursFound } from "./conflict-hours";
import { ConflictStore } from "./conflict-store";
import {
  busyFound,
  type ConflictContext,
  clearReleased,
  detectCalendarBusy,
  openFound,
  pushConflicts,
} from "./conflicts";
import { type ReadContext, type ReadLimits, readCalendar } from "./connected-sync";
import { type CalendarRow, type ConnectedCalendar, Connections, calendarViewOf, type NewCalendar } from "./connections";
import { connectedCalendarMigrations } from "./tables";
import { runWrites, type WriteContext } from "./write-flow";

/** What the calendars need of their object. */
export type ConnectedHost = {
  storage: DurableObjectStorage;
  env: Env;
  fetcher: Fetcher;
  /** The bounds of one read, asked at each read (a test narrows them). */
  limits(): ReadLimits;
  /** The person as their stored settings say (null before any). */
  provider(): { businessId: string; providerId: string; timezone: string } | null;
  /** Re-arms the object's alarm at its earliest due work, inside the caller's transaction. */
  arm(): void;
};

/** Brings the tables up to date, counting versions in `meta` (apart from the claimed calendar's). */
function migrateConnectedTables(sql: SqlStorage): void {
  const row = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = 'staff_calendars_schema'").toArray()[0];
  const current = row?.value ?? 0;
  for (let v = current; v < connectedCalendarMigrations.length; v++) sql.exec(connectedCalendarMigrations[v] as string);
  sql.exec(
    `INSERT INTO meta (key, value) VALUES ('staff_calendars_schema', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    connectedCalendarMigrations.length,
  );
}

export class ConnectedCalendars {
  readonly connections: Connections;
  readonly busy: BusyStore;
  readonly writes: BookingWrites;
  readonly events: CalendarEvents;
  readonly conflicts: ConflictStore;
  readonly audit: AuditOutbox;
  /** Reads under way, by calendar: a second ask joins the first. */
  private readonly reading = new Map<string, Promise<void>>();

  constructor(private readonly host: ConnectedHost) {
    const sql = host.storage.sql;
    host.storage.transactionSync(() => migrateConnectedTables(sql));
    this.connections = new Connections(sql);
    this.busy = new BusyStore(sql);
    this.writes = new BookingWrites(sql);
    this.events = new CalendarEvents(sql);
    this.conflicts = new ConflictStore(sql);
    this.audit = new AuditOutbox(sql);
  }

  /**
   * Connects a calendar unless the person has 5; with `writeBookings`, every booking still to end
   * is owed to it. The audit's record of it is kept in the same transaction.
   */
  connect(calendar: NewCalendar, record: AuditRow): ConnectedCalendar | null {
    return this.host.storage.transactionSync(() => {
      const now = Date.now();
      if (!this.connections.add(calendar, now)) return null;
      this.audit.keep(record, now);
      if (calendar.writeBookings) this.writes.enqueueAll(calendar.id, now);
      this.host.arm();
      return calendarViewOf(this.connections.find(calendar.id) as CalendarRow);
    });
  }

  /**
   * Disconnects a calendar: its busy spans and owed writes go (events already written stay in it).
   * The audit's record of it is kept in the same transaction.
   */
  disconnect(id: string, record: AuditRow): boolean {
    return this.host.storage.transactionSync(() => {
      const removed = this.connections.remove(id);
      if (removed) this.audit.keep(record, Date.now());
      this.busy.dropCalendar(id);
      this.host.storage.sql.exec("DELETE FROM booking_events WHERE calendar_id = ?", id);
      // Its busy times went with it: conflicts they made clear.
      detectCalendarBusy(this.conflictContext(), this.busy, Date.now());
      this.host.arm();
      return removed;
    });
  }

  list(): ConnectedCalendar[] {
    return this.connections.all().map(calendarViewOf);
  }

  get(id: string): ConnectedCalendar | null {
    const row = this.connections.find(id);
    return row ? calendarViewOf(row) : null;
  }

  /** Reads a calendar now (joining a read under way) and answers it as it is then; null if unknown. */
  async sync(id: string): Promise<ConnectedCalendar | null> {
    if (!this.connections.find(id)) return null;
    let read = this.reading.get(id);
    if (!read) {
      read = readCalendar(this.readContext(), id).finally(() => this.reading.delete(id));
      this.reading.set(id, read);
    }
    await read;
    return this.get(id);
  }

  /** Why a claim cannot take the person's time beside their own calendars' busy spans, or null. */
  refusal(claim: ClaimSpan): ClaimRefusal | null {
    if (!this.busy.overlaps(claim.blockedStart, claim.blockedEnd)) return null;
    return { ok: false, reason: "provider_busy", detail: "The provider's own calendar shows them busy at that time." };
  }

  /**
   * A claim was stored or kept (a hold's became a booking's): its booking's events follow it, and
   * a hold placed before a change of `person`'s hours or busy times (a hold keeps its time) is
   * marked as it becomes a booking the change no longer allows.
   */
  claimStored(claim: ClaimSpan, provider: ProviderSnapshot | null): void {
    if (claim.expiresAt) return;
    if (claim.bookingId) this.writes.remember(claim.claimId, claim.bookingId);
    const bookingId = claim.bookingId ?? this.writes.bookingOf(claim.claimId);
    const now = Date.now();
    this.writes.refresh(bookingId, this.connections.writers(), now);
    if (!provider || claim.end <= now) return;
    const booked = [{ bookingId, start: claim.start, end: claim.end }];
    const context = this.conflictContext();
    openFound(context, bookingId, hoursFound(provider, booked), now);
    openFound(context, bookingId, busyFound(booked, this.busy, now), now);
  }

  /**
   * A claim was released: its booking's event moves back to an older claim or is deleted, and its
   * conflicts are those of the time it keeps here, if any (`provider`'s hours, the busy times).
   */
  claimReleased(claimId: string, provider: ProviderSnapshot | null): void {
    const bookingId = this.writes.bookingOf(claimId);
    const now = Date.now();
    this.writes.refresh(bookingId, this.connections.writers(), now);
    clearReleased(
      this.conflictContext(),
      bookingId,
      (left) => [provider ? hoursFound(provider, left) : undefined, busyFound(left, this.busy, now)],
      now,
    );
  }

  /** The person's settings changed: bookings their hours no longer cover are marked, those covered again cleared. */
  hoursChanged(provider: ProviderSnapshot): void {
    detectHours(this.conflictContext(), provider, Date.now());
  }

  /** The earliest due work: a read, a write or an event; null when none. */
  nextDue(): number | null {
    const due = [
      this.connections.nextDue(),
      this.writes.nextDue(),
      this.events.nextDue(),
      this.conflicts.nextDue(),
      this.audit.nextDue(),
    ];
    const times = due.filter((t): t is number => t !== null);
    return times.length ? Math.min(...times) : null;
  }

  /**
   * Everything due now: the audit's records and conflicts to D1, then events to D1 and the queue
   * (so a webhook's conflict is there), reads, then writes.
   */
  async runDue(now: number): Promise<void> {
    await writeDueAudit(this.host.env, this.host.storage, this.audit, now);
    const provider = this.host.provider();
    if (provider) {
      const owner = { businessId: provider.businessId, sourceId: provider.providerId };
      await pushConflicts(this.host.env, this.host.storage, this.conflicts, owner, now);
    }
    await publishDueEvents(this.host.env, this.host.storage, this.events, now);
    await Promise.all(this.connections.due(now).map((row) => this.sync(row.id)));
    await runWrites(this.writeContext(), now);
    this.host.storage.transactionSync(() => this.writes.prune(now));
  }

  /** The address and opened credentials of a calendar. */
  private async access(row: CalendarRow): Promise<CaldavAccess> {
    if (!row.credentials) return { url: row.url };
    const secret = this.host.env.CALENDAR_SECRET;
    if (!secret) throw new Error("CALENDAR_SECRET is not set: the calendar's credentials cannot be opened.");
    const opened = JSON.parse(
      await unseal(secret, CALENDAR_SECRET_PURPOSE, row.id, row.credentials),
    ) as SealedCredentials;
    return { url: row.url, username: opened.username, password: opened.password };
  }

  private owner() {
    return this.host.provider() ?? { businessId: "", providerId: "", timezone: "UTC" };
  }

  private conflictContext(): ConflictContext {
    return {
      sql: this.host.storage.sql,
      conflicts: this.conflicts,
      events: this.events,
      owner: () => {
        const { businessId, providerId } = this.owner();
        return { businessId, sourceId: providerId, about: { providerId } };
      },
    };
  }

  private readContext(): ReadContext {
    return {
      detect: (now) => detectCalendarBusy(this.conflictContext(), this.busy, now),
      storage: this.host.storage,
      connections: this.connections,
      busy: this.busy,
      writes: this.writes,
      events: this.events,
      fetcher: this.host.fetcher,
      limits: this.host.limits(),
      access: (row) => this.access(row),
      owner: () => this.owner(),
      arm: () => this.host.arm(),
    };
  }

  private writeContext(): WriteContext {
    return {
      storage: this.host.storage,
      connections: this.connections,
      writes: this.writes,
      fetcher: this.host.fetcher,
      db: this.host.env.DB,
      access: (row) => this.access(row),
      businessId: () => this.owner().businessId,
      arm: () => this.host.arm(),
    };
  }
}
