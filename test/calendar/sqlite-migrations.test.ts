/** The calendar's SQLite migrations bring an object made by an older release up to date. */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ServiceCalendar } from "../../src/calendar/service/object/service-calendar";
import { serviceMigrations } from "../../src/calendar/service/tables/migrations";
import { migrate } from "../../src/calendar/sqlite-migrations";
import { api, createAccount, createService, problem } from "../support/api";
import { at, book, bookingBody, calendarStub, postBooking } from "../support/bookings";
import { hold } from "../support/fixtures";

/** Takes an object back to before booking limits (limits/storage.ts): triggers, counts, computed columns. */
function undoLimits(sql: SqlStorage): void {
  for (const trigger of ["seat_counts_insert", "seat_counts_delete", "seat_counts_update", "made_order_insert"]) {
    sql.exec(`DROP TRIGGER ${trigger}`);
  }
  sql.exec("DROP INDEX bookings_seated_start");
  sql.exec("DROP INDEX bookings_customer_upcoming");
  sql.exec("DROP TABLE seat_counts");
  sql.exec("DROP TABLE made_order");
  sql.exec("ALTER TABLE bookings DROP COLUMN start_at_ms");
  sql.exec("ALTER TABLE bookings DROP COLUMN customer_key");
  // A hold's row carried no start before.
  sql.exec("UPDATE bookings SET record = json_remove(record, '$.startTime') WHERE kind = 'hold'");
}

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
      // migrations of providers and holds, and of limits, too).
      undoLimits(sql);
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
      sql.exec("DROP TABLE audit_outbox");
      sql.exec("ALTER TABLE events DROP COLUMN audit");
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

  it("an object from before booking limits counts the bookings and live holds it holds once migrated", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const stub = calendarStub(businessId, service.id);
    await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    await book(apiKey, bookingBody(service.id, at(2, "11:00")));
    const cancelled = await book(apiKey, bookingBody(service.id, at(2, "12:00")));
    expect((await api("POST", `/bookings/${cancelled.id}/cancel`, { key: apiKey, body: {} })).status).toBe(200);
    await hold(apiKey, service.id, at(2, "13:00"));

    const counted = await runInDurableObject(stub, (_instance: ServiceCalendar, state) => {
      const sql = state.storage.sql;
      const held = () => sql.exec<{ n: number }>("SELECT coalesce(sum(n), 0) AS n FROM seat_counts").one().n;
      const before = held();
      // Back before limits, and before the events' audit column and the audit's outbox that followed them.
      undoLimits(sql);
      sql.exec("ALTER TABLE events DROP COLUMN audit");
      sql.exec("DROP TABLE audit_outbox");
      sql.exec("UPDATE schema_version SET version = ?", serviceMigrations.length - 3);
      state.storage.transactionSync(() => migrate(sql, serviceMigrations));
      return { before, after: held() };
    });
    // Two bookings and the live hold; the cancelled booking frees its count.
    expect(counted).toEqual({ before: 3, after: 3 });

    // A limit set now counts them: the day takes one more booking, then refuses.
    await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { limits: { perDay: 4 } } });
    expect((await postBooking(apiKey, bookingBody(service.id, at(2, "14:00")))).status).toBe(201);
    const over = await postBooking(apiKey, bookingBody(service.id, at(2, "15:00")));
    expect((await problem(over, 409, "slot_unavailable")).reason).toBe("limit_reached");
  });
});
