/**
 * Reading one of a person's calendars (docs/staff-calendars.md, "How a calendar is read"), in
 * steps whose every write is one transaction:
 *
 * 1. lease: the next attempt is armed a minute ahead, so a reset anywhere below is re-driven;
 * 2. the collection's change marker (sync-token or ctag): unchanged, and the window listed within
 *    a day, and the read ends here — one small request;
 * 3. the members with events in the window and their ETags; only new or changed members (and
 *    series that go on past the window) are fetched, 100 a request, and expanded here;
 * 4. one transaction stores it all: spans replaced per member, members gone forgotten, the marker,
 *    and the conflicts the busy times now make with the person's bookings (conflicts.ts).
 *
 * Nothing is stored before step 4, so a reset between fetching and storing loses nothing: the
 * marker is still the old one and the next read fetches again. A failure keeps the last busy
 * spans and marks the calendar failing (one `calendar.sync_failed` per outage).
 */

import { errorText } from "../../lib/api-error";
import { bookingMemberUrl } from "../connected/booking-event";
import { type BusySpan, expandMember } from "../connected/expand";
import { type CaldavAccess, CaldavError, type Fetcher } from "../connected/http";
import { hrefPath } from "../connected/multistatus";
import { collectionState, fetchMembers, listWindow, type Member } from "../connected/requests";
import type { BookingWrites } from "./booking-writes";
import type { BusyStore, StoredMember } from "./busy-store";
import type { CalendarEvents } from "./calendar-events";
import type { CalendarRow, Connections } from "./connections";

const DAY_MS = 86_400_000;
/** How far back busy times are read (an event begun before now can still block). */
export const HISTORY_MS = 30 * DAY_MS;
/** How far ahead: the furthest any slot calendar reaches (`maxAdvanceDays` is at most 730). */
export const HORIZON_MS = 731 * DAY_MS;
/** An unchanged calendar is still listed once a day, as its window moves on. */
export const RELIST_EVERY_MS = DAY_MS;
/** Members fetched per `calendar-multiget`. */
export const FETCH_BATCH = 100;
/** How long a read may take before the alarm tries again (a reset mid-read is re-driven then). */
export const READ_LEASE_MS = 60_000;

/** The bounds of one read: events listed in the window, and busy spans stored per calendar. */
export type ReadLimits = { maxEvents: number };
export const DEFAULT_LIMITS: ReadLimits = { maxEvents: 10_000 };

/** What a read needs of the object. */
export type ReadContext = {
  storage: DurableObjectStorage;
  connections: Connections;
  busy: BusyStore;
  writes: BookingWrites;
  events: CalendarEvents;
  fetcher: Fetcher;
  limits: ReadLimits;
  /** The calendar's address and credentials, opened. */
  access(row: CalendarRow): Promise<CaldavAccess>;
  /** The person's time zone (floating times and all-day events) and who they are. */
  owner(): { businessId: string; providerId: string; timezone: string };
  /** Re-arms the object's alarm, inside the caller's transaction. */
  arm(): void;
  /** Finds the bookings the busy times now cover (and clears those they no longer do), inside the caller's transaction. */
  detect(now: number): void;
};

type Outcome = { path: string; member: StoredMember; spans: BusySpan[] } | { path: string; gone: true };

/** The same calendar as when the read began (not disconnected meanwhile). */
const same = (context: ReadContext, row: CalendarRow) =>
  context.connections.find(row.id)?.created_ms === row.created_ms;

/** Reads one calendar now; never throws (a failure is recorded on the calendar). */
export async function readCalendar(context: ReadContext, calendarId: string): Promise<void> {
  const { storage, connections } = context;
  const now = Date.now();
  const row = storage.transactionSync(() => {
    const found = connections.find(calendarId);
    if (found) {
      connections.lease(calendarId, now + READ_LEASE_MS);
      context.arm();
    }
    return found;
  });
  if (!row) return;
  try {
    const access = await context.access(row);
    const marker = await collectionState(context.fetcher, access);
    const fresh = row.listed_ms !== null && now - row.listed_ms < RELIST_EVERY_MS;
    if (row.status === "ok" && marker !== null && marker === row.marker && fresh) {
      storage.transactionSync(() => {
        if (same(context, row)) connections.succeeded(row.id, { marker }, now);
        context.arm();
      });
      return;
    }
    const window = { from: now - HISTORY_MS, to: now + HORIZON_MS };
    const listed = await listWindow(context.fetcher, access, window.from, window.to, context.limits.maxEvents);
    const outcomes = await fetchChanged(context, row, access, listed, window);
    storage.transactionSync(() => {
      if (!same(context, row)) return;
      store(context, row, listed, outcomes, window.from);
      context.detect(now);
      connections.succeeded(
        row.id,
        { marker, listed: { at: now, until: window.to }, skipped: context.busy.countMalformed(row.id) },
        now,
      );
      context.arm();
    });
  } catch (error) {
    recordFailure(context, row, error, now);
  }
}

/** Fetches and expands the members that are new, changed or go on past the window; ours are skipped. */
async function fetchChanged(
  context: ReadContext,
  row: CalendarRow,
  access: CaldavAccess,
  listed: Member[],
  window: { from: number; to: number },
): Promise<Outcome[]> {
  const stored = context.busy.members(row.id);
  const own = ownPaths(context, row);
  const changed = listed.filter((m) => {
    const path = hrefPath(m.href, row.url);
    const known = stored.get(path);
    return !own.has(path) && !(known && m.etag !== null && known.etag === m.etag && !known.continues);
  });
  const { timezone } = context.owner();
  const outcomes: Outcome[] = [];
  for (let i = 0; i < changed.length; i += FETCH_BATCH) {
    const fetched = await fetchMembers(
      context.fetcher,
      access,
      changed.slice(i, i + FETCH_BATCH).map((m) => m.href),
    );
    for (const member of fetched) {
      const path = hrefPath(member.href, row.url);
      if (own.has(path)) continue;
      if (member.data === null) {
        outcomes.push({ path, gone: true });
        continue;
      }
      let expansion: ReturnType<typeof expandMember>;
      try {
        expansion = expandMember(member.data, window, timezone, context.limits.maxEvents);
      } catch (error) {
        throw new CaldavError(`One event has ${errorText(error)} in the window (at most ${context.limits.maxEvents}).`);
      }
      const kind = expansion.kind;
      const spans = kind === "busy" ? expansion.spans : [];
      const continues = kind === "busy" && expansion.continues;
      outcomes.push({ path, member: { etag: member.etag, kind, continues }, spans });
    }
  }
  return outcomes;
}

/** Stores a read in the caller's transaction: members gone forgotten, changed ones replaced, old spans pruned. */
function store(context: ReadContext, row: CalendarRow, listed: Member[], outcomes: Outcome[], from: number): void {
  const { busy } = context;
  const seen = new Set(listed.map((m) => hrefPath(m.href, row.url)));
  const own = ownPaths(context, row);
  for (const path of busy.members(row.id).keys()) if (!seen.has(path) || own.has(path)) busy.forget(row.id, path);
  for (const outcome of outcomes) {
    if ("gone" in outcome) busy.forget(row.id, outcome.path);
    else busy.replace(row.id, outcome.path, outcome.member, outcome.spans);
  }
  busy.prune(from);
  const count = busy.count(row.id);
  if (count > context.limits.maxEvents) {
    // Thrown inside the transaction: nothing of this read is kept, the last busy times stay.
    throw new CaldavError(
      `The calendar gives more than ${context.limits.maxEvents.toLocaleString("en-US")} busy times in its window.`,
    );
  }
}

/** The paths of the members this object wrote to the calendar (never busy). */
function ownPaths(context: ReadContext, row: CalendarRow): Set<string> {
  const ids = context.writes.bookingIds(row.id);
  return new Set([...ids].map((id) => hrefPath(bookingMemberUrl(row.url, id), row.url)));
}

/** Marks the calendar failing; the first failure of an outage raises `calendar.sync_failed`. */
function recordFailure(context: ReadContext, row: CalendarRow, error: unknown, now: number): void {
  const message =
    error instanceof CaldavError ? error.message : `The calendar could not be read (${errorText(error)}).`;
  context.storage.transactionSync(() => {
    if (!same(context, row)) return;
    if (context.connections.failed(row.id, message, now)) {
      const { businessId, providerId } = context.owner();
      const failed = context.connections.find(row.id) as CalendarRow;
      context.events.raise(
        businessId,
        "calendar.sync_failed",
        {
          calendarId: row.id,
          providerId,
          url: row.url,
          error: message,
          failingSince: new Date(now).toISOString(),
          lastSyncedAt: failed.last_synced_ms === null ? null : new Date(failed.last_synced_ms).toISOString(),
        },
        now,
      );
    }
    context.arm();
  });
}
