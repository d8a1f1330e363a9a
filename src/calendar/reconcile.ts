/**
 * Compares every calendar with D1. The calendars are the authority; D1 should hold each of
 * their bookings at the same status and version, except entries still queued in an outbox.
 */
import { asc, eq, gt } from "drizzle-orm";
import { createDb } from "../db/client";
import { type BookingStatus, bookings, services } from "../db/schema";
import { calendarOf } from "./client";

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
  /** True when nothing differs beyond entries still waiting in an outbox. */
  consistent: boolean;
};

const PAGE = 100;

/** Walks all services page by page and diffs each calendar's snapshot against D1. */
export async function reconcile(env: Env): Promise<ReconciliationReport> {
  const db = createDb(env.DB);
  const report: ReconciliationReport = { services: 0, bookings: 0, differences: [], consistent: true };
  for (let after = ""; ; ) {
    const page = await db
      .select({ id: services.id, businessId: services.businessId })
      .from(services)
      .where(gt(services.id, after))
      .orderBy(asc(services.id))
      .limit(PAGE);
    for (const service of page) {
      const [snapshot, stored] = await Promise.all([
        calendarOf(env, service.businessId, service.id).snapshot(),
        db
          .select({ id: bookings.id, status: bookings.status, version: bookings.version })
          .from(bookings)
          .where(eq(bookings.serviceId, service.id)),
      ]);
      report.services++;
      report.bookings += snapshot.bookings.length;
      const inD1 = new Map(stored.map(({ id, status, version }) => [id, { status, version }]));
      const queued = new Set(snapshot.outbox);
      const stuck = new Set(snapshot.stuckInOutbox);
      const base = { businessId: service.businessId, serviceId: service.id };
      for (const b of snapshot.bookings) {
        const d1 = inD1.get(b.id);
        inD1.delete(b.id);
        const calendar = { status: b.status, version: b.version };
        if (stuck.has(b.id))
          report.differences.push({ ...base, bookingId: b.id, kind: "stuck_in_outbox", calendar, d1 });
        else if (queued.has(b.id))
          report.differences.push({ ...base, bookingId: b.id, kind: "pending_in_outbox", calendar, d1 });
        else if (!d1) report.differences.push({ ...base, bookingId: b.id, kind: "missing_in_d1", calendar });
        else if (d1.status !== b.status || d1.version !== b.version) {
          report.differences.push({ ...base, bookingId: b.id, kind: "status_mismatch", calendar, d1 });
        }
      }
      for (const [bookingId, d1] of inD1) {
        report.differences.push({ ...base, bookingId, kind: "missing_in_calendar", d1 });
      }
    }
    if (page.length < PAGE) break;
    after = (page.at(-1) as { id: string }).id;
  }
  report.consistent = report.differences.every((d) => d.kind === "pending_in_outbox");
  return report;
}
