/**
 * What runs out by itself: holds past their expiry and tentative rows past their deadline (their
 * request died between its transactions). Both free their seat here and owe the calendars they
 * claimed a release. Called first in every transaction that counts seats, and by the alarm.
 */
import type { CalendarTables } from "../tables/tables";

/** Frees holds whose time is up; their claims are released, and a waitlist offer among them lapses. */
export function expireHolds(tables: CalendarTables, now: number): void {
  for (const { id, businessId, claims } of tables.holds.expire(now)) {
    tables.tasks.release(businessId, claims, now);
    tables.waitlist.holdEnded(id, "EXPIRED", null, new Date(now).toISOString());
  }
}

/** Gives up tentative rows past their deadline; everything they may have claimed is released. */
export function expireTentative(tables: CalendarTables, now: number): void {
  for (const row of tables.reservations.expiredTentative(now)) {
    // A hold that never became live is forgotten with its record, like a refused one.
    if (row.kind === "hold") tables.holds.discard(row.id);
    else tables.reservations.removeTentative(row.id);
    tables.tasks.release(row.businessId, row.claims, now);
  }
}
