/** The calendar's SQLite migrations bring an object made by an older release up to date. */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { serviceMigrations } from "../../src/calendar/service/tables/migrations";
import { migrate } from "../../src/calendar/sqlite-migrations";
import { at, book, bookingBody, calendarStub } from "../bookings/support";
import { createAccount, createService } from "../helpers";

const columnsOf = (sql: SqlStorage, table: string) =>
  sql
    .exec<{ name: string }>(`PRAGMA table_info(${table})`)
    .toArray()
    .map((c) => c.name);

describe("calendar migrations", () => {
  it("an object that still has the bookings.start_ms column loses it and keeps its bookings", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const stub = calendarStub(businessId, service.id);
    const booking = await book(apiKey, bookingBody(service.id, at(2, "10:00")));

    const after = await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      const sql = state.storage.sql;
      // Put the object back to the release before the column was dropped (undoing the later
      // migration of providers and holds too).
      for (const index of ["bookings_provider_blocked", "bookings_tentative", "bookings_expiring"]) {
        sql.exec(`DROP INDEX ${index}`);
      }
      for (const column of ["kind", "provider_id", "claims", "tentative_until_ms", "expires_ms"]) {
        sql.exec(`ALTER TABLE bookings DROP COLUMN ${column}`);
      }
      sql.exec("DROP TABLE reminders");
      sql.exec("DROP TABLE released_claims");
      sql.exec("DROP TABLE visits");
      sql.exec("DROP TABLE waitlist");
      sql.exec("DROP TABLE waitlist_context");
      sql.exec("DROP TABLE holds");
      sql.exec("DROP TABLE claim_tasks");
      sql.exec("ALTER TABLE outbox DROP COLUMN queued_ms");
      sql.exec("ALTER TABLE events DROP COLUMN mail");
      sql.exec("ALTER TABLE bookings ADD COLUMN start_ms INTEGER NOT NULL DEFAULT 0");
      sql.exec("UPDATE schema_version SET version = 2");
      expect(columnsOf(sql, "bookings")).toContain("start_ms");
      state.storage.transactionSync(() => migrate(sql, serviceMigrations));
      return {
        columns: columnsOf(sql, "bookings"),
        version: sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version,
        ids: sql.exec<{ id: string }>("SELECT id FROM bookings").toArray(),
      };
    });
    expect(after.columns).not.toContain("start_ms");
    expect(after.columns).toEqual([
      "id",
      "blocked_start_ms",
      "blocked_end_ms",
      "status",
      "version",
      "record",
      "kind",
      "provider_id",
      "tentative_until_ms",
      "expires_ms",
      "claims",
    ]);
    expect(after.version).toBe(serviceMigrations.length);
    expect(after.ids).toEqual([{ id: booking.id }]);

    // The migrated calendar still counts the booking: the same slot is full.
    const snapshot = await stub.snapshot();
    expect(snapshot.counters).toMatchObject({ active: 1, confirmed: 1 });
  });
});
