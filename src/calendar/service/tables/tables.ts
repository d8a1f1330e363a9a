/** The calendar's SQLite tables, each behind the module that owns its job. */

import { AlarmClock } from "../../alarm-clock";
import { AuditOutbox } from "../../audit-outbox";
import { ClaimTasks } from "../../claims/tasks";
import { type EventPublisher, EventRelay } from "../../d1/event-relay";
import { OUTBOX_STUCK_AFTER_MS, Outbox } from "../../d1/outbox";
import { LimitCounts } from "../../limits/counts";
import { migrate } from "../../sqlite-migrations";
import type { CalendarSnapshot } from "../../types";
import { Holds } from "./holds";
import { IdempotencyRecords } from "./idempotency-records";
import { serviceMigrations } from "./migrations";
import { ReleasedClaims } from "./released-claims";
import { Reminders } from "./reminders";
import { Reservations } from "./reservations";
import { ServiceVersion } from "./service-version";
import { VisitRecords } from "./visit-records";
import { Waitlist } from "./waitlist";

export type CalendarTables = {
  reservations: Reservations;
  idempotency: IdempotencyRecords;
  outbox: Outbox;
  events: EventRelay;
  /** What is owed to the calendars this one claimed time in. */
  tasks: ClaimTasks;
  holds: Holds;
  reminders: Reminders;
  alarm: AlarmClock;
  serviceVersion: ServiceVersion;
  /** Seat claims released here (a visit's segments). */
  releasedClaims: ReleasedClaims;
  /** Visits this calendar was the entry of. */
  visits: VisitRecords;
  /** Customers queued for full slots. */
  waitlist: Waitlist;
  /** What booking limits and balanced assignment count (limits/counts.ts). */
  counts: LimitCounts;
  /** The audit's records of changes kept here only, until D1 has them. */
  audit: AuditOutbox;
};

/** What a flow (flows/) needs of its calendar object: its storage, its Worker bindings, its tables. */
export type FlowDeps = { storage: DurableObjectStorage; env: Env; tables: CalendarTables };

/** Brings the tables up to date and opens them; call once, from the object's constructor. */
export function openTables(storage: DurableObjectStorage, publish: EventPublisher): CalendarTables {
  storage.transactionSync(() => migrate(storage.sql, serviceMigrations));
  const alarm = new AlarmClock(storage);
  const reservations = new Reservations(storage.sql);
  return {
    reservations,
    idempotency: new IdempotencyRecords(storage.sql),
    outbox: new Outbox(storage.sql, alarm),
    events: new EventRelay(storage, publish),
    tasks: new ClaimTasks(storage),
    holds: new Holds(storage.sql, (blocked) => reservations.widen(blocked)),
    reminders: new Reminders(storage.sql, alarm),
    alarm,
    serviceVersion: new ServiceVersion(storage.sql),
    releasedClaims: new ReleasedClaims(storage.sql),
    visits: new VisitRecords(storage.sql),
    waitlist: new Waitlist(storage.sql),
    counts: new LimitCounts(storage.sql),
    audit: new AuditOutbox(storage.sql),
  };
}

/** What the calendar holds, for reconciliation: committed bookings, pending work, counters, holds. */
export const snapshotOf = (tables: CalendarTables, now: number): CalendarSnapshot => ({
  bookings: tables.reservations.list(),
  outbox: tables.outbox.pendingIds(),
  stuckInOutbox: tables.outbox.queuedBefore(now - OUTBOX_STUCK_AFTER_MS),
  counters: tables.reservations.counters(),
  releases: tables.tasks.pending(),
  holds: tables.holds.list(now),
});
