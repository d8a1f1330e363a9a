/**
 * Writing bookings into a person's calendars (`writeBookings`), one owed row at a time: the
 * event is PUT at `{calendar}/{bookingId}.ics` under the ETag last written (`If-Match`), or as a
 * new member (`If-None-Match: *`), and deleted under its ETag once the booking holds no claim. A
 * 412 means the member changed since (someone edited it, or an earlier attempt landed and its
 * answer was lost): its ETag is read and the write made again. The outcome is stored in one
 * transaction, so a reset between the request and that transaction repeats the request, which is
 * harmless: the member's address is fixed by the booking id, so nothing is ever duplicated.
 */
import { and, eq } from "drizzle-orm";
import { createDb } from "../../db/client";
import { services } from "../../db/schema";
import { errorText } from "../../lib/api-error";
import { bookingEventData, bookingMemberUrl } from "../connected/booking-event";
import { type CaldavAccess, CaldavError, type Fetcher } from "../connected/http";
import { deleteMember, memberEtag, putMember, type WriteOutcome } from "../connected/requests";
import type { BookingEventRow, BookingWrites, WriteResult } from "./booking-writes";
import type { CalendarRow, Connections } from "./connections";

/** Writes made per alarm run at most (the rest stay due). */
export const WRITES_PER_RUN = 25;

/** What the writes need of the object. */
export type WriteContext = {
  storage: DurableObjectStorage;
  connections: Connections;
  writes: BookingWrites;
  fetcher: Fetcher;
  db: D1Database;
  access(row: CalendarRow): Promise<CaldavAccess>;
  businessId(): string;
  arm(): void;
};

/** The title of a service's events: its name from D1, or a plain word when D1 cannot say. */
async function serviceTitle(context: WriteContext, serviceId: string, cache: Map<string, string>): Promise<string> {
  const known = cache.get(serviceId);
  if (known) return known;
  let title = "Booking";
  try {
    const [row] = await createDb(context.db)
      .select({ name: services.name })
      .from(services)
      .where(and(eq(services.businessId, context.businessId()), eq(services.id, serviceId)))
      .limit(1);
    if (row) title = row.name;
  } catch {
    // The event is still worth writing; its title is the one thing D1 adds.
  }
  cache.set(serviceId, title);
  return title;
}

/** One attempt at a row's write. */
async function attempt(
  context: WriteContext,
  row: BookingEventRow,
  calendar: CalendarRow,
  access: CaldavAccess,
  titles: Map<string, string>,
): Promise<WriteResult> {
  const url = bookingMemberUrl(calendar.url, row.booking_id);
  try {
    let outcome: WriteOutcome;
    if (row.start_ms === null || row.end_ms === null) {
      outcome = await deleteMember(context.fetcher, access, url, row.etag);
    } else {
      const body = bookingEventData({
        bookingId: row.booking_id,
        summary: await serviceTitle(context, row.service_id, titles),
        start: row.start_ms,
        end: row.end_ms,
        sequence: row.version,
        stamp: Date.now(),
      });
      outcome = await putMember(context.fetcher, access, url, body, row.etag);
    }
    if (outcome.ok) return { kind: "written", etag: outcome.etag };
    return { kind: "conflict", etag: await memberEtag(context.fetcher, access, url) };
  } catch (error) {
    return { kind: "failed", error: error instanceof CaldavError ? error.message : errorText(error) };
  }
}

/** Makes the writes due now (at most `WRITES_PER_RUN`), each settled in its own transaction. */
export async function runWrites(context: WriteContext, now: number): Promise<void> {
  const due = context.writes.due(now, WRITES_PER_RUN);
  const titles = new Map<string, string>();
  const accesses = new Map<string, Promise<CaldavAccess>>();
  for (const row of due) {
    const calendar = context.connections.find(row.calendar_id);
    if (!calendar) continue;
    let access = accesses.get(calendar.id);
    if (!access) {
      access = context.access(calendar);
      accesses.set(calendar.id, access);
    }
    let result: WriteResult;
    try {
      result = await attempt(context, row, calendar, await access, titles);
    } catch (error) {
      result = { kind: "failed", error: errorText(error) };
    }
    context.storage.transactionSync(() => {
      context.writes.settle(row, result, Date.now());
      context.arm();
    });
  }
}
