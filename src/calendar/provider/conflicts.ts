/**
 * Conflicts where a change lands in a person's object (docs/staff-calendars.md, "Conflicts"): after
 * a read that changed their busy times, one pass over their upcoming bookings and those busy times,
 * both by start, finds the bookings a busy time now covers (conflict-hours.ts: after a change of
 * their hours, one pass over their bookings); each new one is a row and one
 * `booking.conflict` event, each that no longer holds is cleared with one
 * `booking.conflict_resolved`, both in the read's own transaction (so a reset sends each once).
 * The rows reach D1 by the alarm, newest version winning.
 */
import { and, sql as drizzleSql } from "drizzle-orm";
import { createDb } from "../../db/client";
import { bookingConflicts } from "../../db/schema";
import type { ConflictKind } from "../../types/booking";
import type { BusySpan } from "../connected/expand";
import type { BusyStore } from "./busy-store";
import type { CalendarEvents } from "./calendar-events";
import { type ConflictRow, type ConflictStore, conflictOf } from "./conflict-store";

/** Whose calendar found a conflict: its id (`source_id` in D1) and what its events name (a person or a room). */
export type ConflictOwner = {
  businessId: string;
  sourceId: string;
  about: { providerId: string } | { resourceId: string };
};

/** What finding conflicts needs of the object: a person's or a room's. */
export type ConflictContext = {
  sql: SqlStorage;
  conflicts: ConflictStore;
  events: CalendarEvents;
  owner(): ConflictOwner;
};

/** A booking's span in this calendar. */
export type BookedSpan = { bookingId: string; start: number; end: number };

/** The person's bookings still to end (live claims without expiry), by start; with `bookingId`, that booking's only. */
export function upcoming(sql: SqlStorage, now: number, bookingId: string | null = null): BookedSpan[] {
  // A claim names its booking in claim_bookings, else by its id's first part (`<booking>.<n>`).
  return sql
    .exec<{ booking_id: string; start_ms: number; end_ms: number }>(
      `SELECT start_ms, end_ms, booking_id FROM (
         SELECT c.start_ms, c.end_ms, COALESCE(b.booking_id,
           CASE WHEN instr(c.claim_id, '.') > 0 THEN substr(c.claim_id, 1, instr(c.claim_id, '.') - 1) ELSE c.claim_id END
         ) AS booking_id
         FROM claims c LEFT JOIN claim_bookings b ON b.claim_id = c.claim_id
         WHERE c.expires_ms IS NULL AND c.end_ms > ?1
       ) WHERE ?2 IS NULL OR booking_id = ?2
       ORDER BY start_ms`,
      now,
      bookingId,
    )
    .toArray()
    .map((r) => ({ bookingId: r.booking_id, start: r.start_ms, end: r.end_ms }));
}

/**
 * The first busy span over each booking: `booked` and `busy` (merged, disjoint) both by start,
 * walked once together — a span that ends before one booking starts ends before every later one.
 */
export function busyOver(booked: readonly BookedSpan[], busy: readonly BusySpan[]): Map<string, BusySpan> {
  const hits = new Map<string, BusySpan>();
  let j = 0;
  for (const booking of booked) {
    while (j < busy.length && (busy[j] as BusySpan).end <= booking.start) j++;
    const span = busy[j];
    if (span && span.start < booking.end && !hits.has(booking.bookingId)) hits.set(booking.bookingId, span);
  }
  return hits;
}

/** What a pass found: per booking, the kind and the sentence of its conflict. */
export type Found = Map<string, { kind: ConflictKind; detail: string }>;

/**
 * Brings the open conflicts of `kinds` in line with what a pass `found` over the `booked` ones:
 * each new one opened with its event, each of a booking still to come no longer found cleared with
 * its event (one that ended keeps what it had); in the caller's transaction.
 */
export function reconcileConflicts(
  context: ConflictContext,
  kinds: readonly ConflictKind[],
  booked: readonly BookedSpan[],
  found: Found,
  now: number,
): void {
  const still = new Set(booked.map((b) => b.bookingId));
  for (const kind of kinds) {
    const open = context.conflicts.open(kind);
    for (const [bookingId, hit] of found) {
      if (hit.kind !== kind || open.has(bookingId)) continue;
      raise(context, "booking.conflict", context.conflicts.found(bookingId, kind, hit.detail, now), now);
    }
    for (const [bookingId, row] of open) {
      if (still.has(bookingId) && found.get(bookingId)?.kind !== kind) resolve(context, row, "cause_gone", now);
    }
  }
}

/** Finds the person's calendar conflicts as their `busy` times are now; in the caller's transaction. */
export function detectCalendarBusy(context: ConflictContext, busy: BusyStore, now: number): void {
  const booked = upcoming(context.sql, now);
  reconcileConflicts(context, ["calendar_busy"], booked, busyFound(booked, busy, now), now);
}

/** What the person's busy times say of `booked` (by start): each booking one covers. */
export function busyFound(booked: readonly BookedSpan[], busy: BusyStore, now: number): Found {
  const until = booked.reduce((max, b) => Math.max(max, b.end), now);
  const found: Found = new Map();
  for (const [bookingId, span] of busyOver(booked, booked.length ? busy.between(now, until) : [])) {
    const detail = `The provider's own calendar shows them busy from ${iso(span.start)} to ${iso(span.end)}.`;
    found.set(bookingId, { kind: "calendar_busy", detail });
  }
  return found;
}

/**
 * A booking that took its time from a hold placed before a change (a hold keeps its time):
 * what `found` for it opens now, beside what it has, and nothing is cleared.
 */
export function openFound(context: ConflictContext, bookingId: string, found: Found, now: number): void {
  const hit = found.get(bookingId);
  if (!hit || context.conflicts.openOf(bookingId).some((row) => row.kind === hit.kind)) return;
  raise(context, "booking.conflict", context.conflicts.found(bookingId, hit.kind, hit.detail, now), now);
}

/**
 * A booking's claim here was released: its conflicts clear (`booking_changed`), but for the kinds
 * `still` finds over the claims it holds here yet. A move refused elsewhere releases the move's new
 * claim and keeps the old time, whose conflicts still hold; a move done or a cancel leaves none of
 * them. In the caller's transaction.
 */
export function clearReleased(
  context: ConflictContext,
  bookingId: string,
  still: (left: readonly BookedSpan[]) => (Found | undefined)[],
  now: number,
): void {
  const open = context.conflicts.openOf(bookingId);
  // Most releases find nothing open: no need to read what the booking still holds.
  if (open.length === 0) return;
  const left = upcoming(context.sql, now, bookingId);
  const kept = new Set(left.length ? still(left).map((found) => found?.get(bookingId)?.kind) : []);
  for (const row of open) {
    if (!kept.has(row.kind)) resolve(context, row, "booking_changed", now);
  }
}

function resolve(context: ConflictContext, row: ConflictRow, reason: string, now: number): void {
  context.conflicts.clear(row, now);
  raise(context, "booking.conflict_resolved", row, now, { resolvedAt: iso(now), reason });
}

function raise(
  context: ConflictContext,
  type: "booking.conflict" | "booking.conflict_resolved",
  row: ConflictRow,
  now: number,
  extra: object = {},
): void {
  const { businessId, about } = context.owner();
  const data = { bookingId: row.booking_id, ...about, conflict: conflictOf(row), ...extra };
  context.events.raise(businessId, type, data, now);
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** Writes due conflict rows to D1 in one batch (an older version never overwrites a newer one). */
export async function pushConflicts(
  env: Env,
  storage: DurableObjectStorage,
  conflicts: ConflictStore,
  owner: Pick<ConflictOwner, "businessId" | "sourceId">,
  now: number,
): Promise<void> {
  const rows = conflicts.due(now, 50);
  if (rows.length === 0) return;
  const db = createDb(env.DB);
  const t = bookingConflicts;
  const statements = rows.map((row) =>
    db
      .insert(t)
      .values({
        bookingId: row.booking_id,
        sourceId: owner.sourceId,
        kind: row.kind,
        businessId: owner.businessId,
        detectedAt: iso(row.detected_ms),
        detail: row.detail,
        clearedAt: row.cleared_ms === null ? null : iso(row.cleared_ms),
        version: row.version,
      })
      .onConflictDoUpdate({
        target: [t.bookingId, t.sourceId, t.kind],
        set: {
          detectedAt: drizzleSql`excluded.detected_at`,
          detail: drizzleSql`excluded.detail`,
          clearedAt: drizzleSql`excluded.cleared_at`,
          version: drizzleSql`excluded.version`,
        },
        setWhere: and(drizzleSql`excluded.version > ${t.version}`),
      }),
  );
  try {
    await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
    storage.transactionSync(() => {
      for (const row of rows) conflicts.pushed(row);
    });
  } catch {
    storage.transactionSync(() => {
      for (const row of rows) conflicts.failed(row, Date.now());
    });
  }
}
