/**
 * Compares every calendar with D1. The calendars are the authority; D1 should hold each of
 * their bookings at the same status and version, except entries still queued in an outbox.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import { createDb, type Database } from "../db/client";
import { type BookingStatus, bookings, services } from "../db/schema";
import { calendarOf } from "./client";
import { CALENDAR_KEEPS_PAST_MS } from "./prune";

export type Difference = {
  businessId: string;
  serviceId: string;
  bookingId: string;
  /**
   * `pending_in_outbox`: queued for D1 and converging on the next retry (consistent);
   * `stuck_in_outbox`: queued longer than 60 s, which a healthy D1 never allows (inconsistent).
   */
  kind: "missing_in_d1" | "missing_in_calendar" | "status_mismatch" | "pending_in_outbox" | "stuck_in_outbox";
  calendar?: { status: BookingStatus; version: number };
  d1?: { status: BookingStatus; version: number };
};

export type ReconciliationReport = {
  services: number;
  bookings: number;
  /** Everything that differs, outbox entries included (they converge on the next retry). */
  differences: Difference[];
  /** Services whose calendar or D1 rows could not be read this time. */
  unreadable: { businessId: string; serviceId: string; error: string }[];
  /** True when every service was read and nothing differs beyond entries still waiting in an outbox. */
  consistent: boolean;
};

const PAGE = 100;

/** Every service of every business, by id, read from D1 a page at a time. */
export async function* everyService(db: Database) {
  for (let after = ""; ; ) {
    const page = await db
      .select({ id: services.id, businessId: services.businessId })
      .from(services)
      .where(gt(services.id, after))
      .orderBy(asc(services.id))
      .limit(PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = (page.at(-1) as { id: string }).id;
  }
}

/** Walks all services page by page and diffs each calendar's snapshot against D1. */
export async function reconcile(env: Env): Promise<ReconciliationReport> {
  const db = createDb(env.DB);
  const report: ReconciliationReport = { services: 0, bookings: 0, differences: [], unreadable: [], consistent: true };
  const horizon = new Date(Date.now() - CALENDAR_KEEPS_PAST_MS).toISOString();
  for await (const service of everyService(db)) {
    // One service that cannot be read is reported on its own; the walk goes on.
    const read = await Promise.all([
      calendarOf(env, service.businessId, service.id).snapshot(),
      db
        .select({ id: bookings.id, status: bookings.status, version: bookings.version, endTime: bookings.endTime })
        .from(bookings)
        // With the business first, the (business, service, start) index serves it.
        .where(and(eq(bookings.businessId, service.businessId), eq(bookings.serviceId, service.id))),
    ]).catch((error: unknown) => {
      report.unreadable.push({ businessId: service.businessId, serviceId: service.id, error: String(error) });
      return undefined;
    });
    if (!read) continue;
    const [snapshot, stored] = read;
    report.services++;
    report.bookings += snapshot.bookings.length;
    const inD1 = new Map(stored.map(({ id, status, version }) => [id, { status, version }]));
    const endedBefore = new Set(stored.filter((b) => b.endTime < horizon).map((b) => b.id));
    const queued = new Set(snapshot.outbox);
    const stuck = new Set(snapshot.stuckInOutbox);
    const base = { businessId: service.businessId, serviceId: service.id };
    for (const b of snapshot.bookings) {
      const d1 = inD1.get(b.id);
      inD1.delete(b.id);
      const calendar = { status: b.status, version: b.version };
      if (stuck.has(b.id)) report.differences.push({ ...base, bookingId: b.id, kind: "stuck_in_outbox", calendar, d1 });
      else if (queued.has(b.id))
        report.differences.push({ ...base, bookingId: b.id, kind: "pending_in_outbox", calendar, d1 });
      else if (!d1) report.differences.push({ ...base, bookingId: b.id, kind: "missing_in_d1", calendar });
      else if (d1.status !== b.status || d1.version !== b.version) {
        report.differences.push({ ...base, bookingId: b.id, kind: "status_mismatch", calendar, d1 });
      }
    }
    for (const [bookingId, d1] of inD1) {
      // Bookings that ended before the calendar's horizon may be D1's alone (pruned there).
      if (endedBefore.has(bookingId)) continue;
      report.differences.push({ ...base, bookingId, kind: "missing_in_calendar", d1 });
    }
  }
  report.consistent = report.unreadable.length === 0 && report.differences.every((d) => d.kind === "pending_in_outbox");
  return report;
}
