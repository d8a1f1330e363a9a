/**
 * Compares every calendar with D1. The calendars are the authority; D1 should hold each of
 * their bookings at the same status and version, except entries still queued in an outbox.
 */
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { createDb, type Database } from "../../db/client";
import { bookings, holds, services } from "../../db/schema";
import { mergeReports, onEveryShard } from "../../shards/every";
import { shardOfEnv } from "../../shards/shards";
import type { BookingStatus } from "../../types/booking";
import { CALENDAR_KEEPS_PAST_MS } from "../retention";
import { serviceCalendarOf } from "../stubs";

export type Difference = {
  businessId: string;
  serviceId: string;
  /** The booking concerned; for a hold's difference, the hold. */
  bookingId: string;
  /**
   * `pending_in_outbox`: queued for D1 and converging on the next retry (consistent);
   * `stuck_in_outbox`: queued longer than 60 s, which a healthy D1 never allows (inconsistent);
   * `hold_missing_in_calendar`: D1 counts a live hold against its API key that the calendar does
   * not hold (consistent while younger than 60 s: a hold being placed); `hold_missing_in_d1`: the
   * calendar keeps a seat for a hold D1 does not count as live (nobody can find or release it).
   */
  kind:
    | "missing_in_d1"
    | "missing_in_calendar"
    | "status_mismatch"
    | "pending_in_outbox"
    | "stuck_in_outbox"
    | "hold_missing_in_calendar"
    | "hold_missing_in_d1";
  calendar?: { status: BookingStatus; version: number };
  d1?: { status: BookingStatus; version: number };
  /** A hold's difference that is young enough to be a hold being placed right now. */
  young?: boolean;
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
/** A hold D1 knows for less than this may still be on its way to its calendar. */
const HOLD_SETTLE_MS = 60_000;
/** Holds this close to their expiry may have ended on one side and not yet on the other. */
const EXPIRY_MARGIN_MS = 2_000;

/** Every service of every business (or of one), by id, read from D1 a page at a time. */
export async function* everyService(db: Database, businessId?: string) {
  for (let after = ""; ; ) {
    const page = await db
      .select({ id: services.id, businessId: services.businessId })
      .from(services)
      .where(and(gt(services.id, after), businessId === undefined ? undefined : eq(services.businessId, businessId)))
      .orderBy(asc(services.id))
      .limit(PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = (page.at(-1) as { id: string }).id;
  }
}

/** Walks all services (or one business's) page by page and diffs each calendar's snapshot against D1. */
export async function reconcile(env: Env, scope: { businessId?: string } = {}): Promise<ReconciliationReport> {
  // The Worker's own env: every shard in turn, one report of them all.
  if (shardOfEnv(env) === undefined) return mergeReports(await onEveryShard(env, (tenant) => reconcile(tenant, scope)));
  const db = createDb(env.DB);
  const report: ReconciliationReport = { services: 0, bookings: 0, differences: [], unreadable: [], consistent: true };
  const horizon = new Date(Date.now() - CALENDAR_KEEPS_PAST_MS).toISOString();
  for await (const service of everyService(db, scope.businessId)) {
    // One service that cannot be read is reported on its own; the walk goes on.
    const read = await Promise.all([
      serviceCalendarOf(env, service.businessId, service.id).snapshot(),
      db
        .select({ id: bookings.id, status: bookings.status, version: bookings.version, endTime: bookings.endTime })
        .from(bookings)
        // With the business first, the (business, service, start) index serves it.
        .where(and(eq(bookings.businessId, service.businessId), eq(bookings.serviceId, service.id))),
      db
        .select({ id: holds.id, expiresAt: holds.expiresAt, endedAt: holds.endedAt, createdAt: holds.createdAt })
        .from(holds)
        .where(and(eq(holds.businessId, service.businessId), eq(holds.serviceId, service.id), isNull(holds.endedAt))),
    ]).catch((error: unknown) => {
      report.unreadable.push({ businessId: service.businessId, serviceId: service.id, error: String(error) });
      return undefined;
    });
    if (!read) continue;
    const [snapshot, stored, heldInD1] = read;
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
    report.differences.push(...holdDifferences(base, snapshot.holds ?? [], heldInD1, Date.now()));
  }
  report.consistent =
    report.unreadable.length === 0 &&
    report.differences.every(
      (d) => d.kind === "pending_in_outbox" || (d.kind === "hold_missing_in_calendar" && d.young),
    );
  return report;
}

/**
 * Holds one side counts as live and the other does not. D1's row (the key's count) is written
 * before the calendar is asked and ended when the hold is released or booked; the calendar's
 * seat ends on time by itself.
 */
function holdDifferences(
  base: { businessId: string; serviceId: string },
  inCalendar: { id: string; live: boolean; expiresAt: string }[],
  inD1: { id: string; expiresAt: string; createdAt: string }[],
  now: number,
): Difference[] {
  const settled = (expiresAt: string) => Math.abs(Date.parse(expiresAt) - now) > EXPIRY_MARGIN_MS;
  const calendar = new Map(inCalendar.map((h) => [h.id, h]));
  const d1Live = new Set(inD1.filter((h) => Date.parse(h.expiresAt) > now).map((h) => h.id));
  const differences: Difference[] = [];
  for (const hold of inD1) {
    if (!d1Live.has(hold.id) || !settled(hold.expiresAt) || calendar.get(hold.id)?.live) continue;
    const young = now - Date.parse(hold.createdAt) < HOLD_SETTLE_MS;
    differences.push({ ...base, bookingId: hold.id, kind: "hold_missing_in_calendar", young });
  }
  for (const hold of inCalendar) {
    if (hold.live && settled(hold.expiresAt) && !d1Live.has(hold.id)) {
      differences.push({ ...base, bookingId: hold.id, kind: "hold_missing_in_d1" });
    }
  }
  return differences;
}
