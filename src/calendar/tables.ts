/** The calendar's SQLite tables, each behind the module that owns its job. */
import { AlarmClock } from "./alarm-clock";
import { type EventPublisher, EventRelay } from "./event-relay";
import { Holds } from "./holds";
import { IdempotencyRecords } from "./idempotency-records";
import { Outbox } from "./outbox";
import { ProviderReleases } from "./provider-releases";
import { Reservations } from "./reservations";
import { ServiceVersion } from "./service-version";
import { migrate } from "./storage";

export type CalendarTables = {
  reservations: Reservations;
  idempotency: IdempotencyRecords;
  outbox: Outbox;
  events: EventRelay;
  releases: ProviderReleases;
  holds: Holds;
  alarm: AlarmClock;
  serviceVersion: ServiceVersion;
};

/** Brings the tables up to date and opens them; call once, from the object's constructor. */
export function openTables(storage: DurableObjectStorage, publish: EventPublisher): CalendarTables {
  storage.transactionSync(() => migrate(storage.sql));
  const alarm = new AlarmClock(storage);
  return {
    reservations: new Reservations(storage.sql),
    idempotency: new IdempotencyRecords(storage.sql),
    outbox: new Outbox(storage.sql, alarm),
    events: new EventRelay(storage, publish),
    releases: new ProviderReleases(storage),
    holds: new Holds(storage.sql),
    alarm,
    serviceVersion: new ServiceVersion(storage.sql),
  };
}
