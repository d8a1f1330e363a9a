/**
 * A new series: the rule expanded to its occurrences (every one at the first one's local time),
 * their timing checked, then the occurrences booked in the service's calendar as one visit of
 * the same service at several times — all or none (`reject`), or the free ones (`skip`). Only a
 * refusal pays for reading the slots of the occurrences the calendars did not refuse themselves,
 * to list every conflict.
 */

import { eq } from "drizzle-orm";
import { type ServiceSnapshot, serviceCalendarOf, type VisitResult, type VisitSegment } from "../calendar";
import { checkTiming, occurrenceStarts, parseRecurrence } from "../calendar/rules";
import { customerIdByEmail } from "../customers/records";
import type { Database } from "../db/client";
import { series } from "../db/schema";
import { ApiError } from "../lib/api-error";
import type { IdempotencyLock } from "../lib/idempotency";
import { newId } from "../lib/ids";
import { throwRefusal } from "../refusals";
import { loadBookableService } from "../services/bookable";
import type { Author } from "../types/actor";
import type { Answers } from "../types/questions";
import { type Conflict, type Occurrence, type SeriesAssignees, slotConflicts, timingConflicts } from "./conflicts";
import { type Series, seriesOf } from "./records";

/** A series request, as `POST /series` validated it. */
export type SeriesRequest = {
  serviceId: string;
  providerId?: string;
  customerName: string;
  customerEmail: string;
  customerPhone?: string;
  notes?: string;
  answers?: Answers;
  startTime: string;
  endTime: string;
  recurrence: string;
  onConflict: "reject" | "skip";
};

const iso = (ms: number) => new Date(ms).toISOString();
const skippedOf = (conflicts: Conflict[]) =>
  conflicts.map((c) => ({ startTime: iso(c.start), endTime: iso(c.end), reason: c.reason }));

/** The occurrences of the request's rule, or a 422 naming the field at fault. */
function occurrencesOf(request: SeriesRequest, service: ServiceSnapshot, now: number): Occurrence[] {
  const parsed = parseRecurrence(request.recurrence);
  if (!parsed.ok) throw invalid("recurrence", parsed.message);
  const start = Date.parse(request.startTime);
  const end = Date.parse(request.endTime);
  const timing = checkTiming(service, start, end, now);
  if (timing) throw invalid(timing.kind === "invalid" ? timing.field : "startTime", timing.detail, timing.reason);
  const expanded = occurrenceStarts(parsed.rule, start, service.timezone, now);
  if (!expanded.ok) throw invalid("recurrence", expanded.message);
  return expanded.starts.map((s) => ({ start: s, end: s + (end - start) }));
}

const invalid = (path: string, message: string, reason?: string) =>
  new ApiError("validation_failed", message, {
    errors: [{ path, message }],
    ...(reason ? { extensions: { reason } } : {}),
  });

/** The 409 of a series that cannot be booked: every conflicting occurrence. */
const conflicting = (conflicts: Conflict[]) =>
  new ApiError("slot_unavailable", `${conflicts.length} occurrence(s) of the series cannot be booked.`, {
    extensions: {
      reason: conflicts[0]?.reason,
      conflicts: conflicts.map((c) => ({ startTime: iso(c.start), reason: c.reason })),
    },
  });

/** Books the series for the business; answers it with its bookings and the occurrences it skipped. */
export async function createSeries(
  env: Env,
  db: Database,
  { businessId, actor }: Author,
  request: SeriesRequest,
  lock: IdempotencyLock | undefined,
): Promise<{ series: Series; replayed: boolean }> {
  const loaded = await loadBookableService(
    db,
    businessId,
    request.serviceId,
    { providerId: request.providerId, answers: request.answers ?? {} },
    customerIdByEmail(db, businessId, request.customerEmail),
  );
  const { service, providers, resources } = loaded;
  const now = Date.now();
  const occurrences = occurrencesOf(request, service, now);
  const staffing = { providers, resources, providerId: request.providerId };
  let conflicts = timingConflicts(service, occurrences, now);
  // The series row is written with these; conflicts only grow, so more means the row is behind.
  const conflictsWritten = conflicts.length;
  if (request.onConflict === "reject" && conflicts.length > 0) throw conflicting(conflicts);
  const id = newId("series");
  const segment: VisitSegment = { service, providers, resources, providerId: request.providerId ?? null };
  const book = (free: Occurrence[]) =>
    serviceCalendarOf(env, businessId, service.id).createVisit({
      appointmentId: id,
      startTime: iso((free[0] as Occurrence).start),
      segments: free.map(() => ({ ...segment, answers: request.answers ?? {} })),
      series: { times: free },
      customer: {
        customerName: request.customerName,
        customerEmail: request.customerEmail,
        customerPhone: request.customerPhone ?? null,
        notes: request.notes ?? null,
      },
      customerId: loaded.also[0][0]?.id ?? null,
      idempotency: lock,
      actor,
    });
  // Written first: a series whose booking dies midway is found, with the bookings it has.
  await db.insert(series).values({
    id,
    businessId,
    serviceId: service.id,
    recurrence: request.recurrence,
    skipped: skippedOf(conflicts),
    createdAt: new Date(now).toISOString(),
  });
  // Another booking can take a free occurrence meanwhile: `skip` then skips it too and tries again.
  for (let attempt = 0; ; attempt++) {
    const free = occurrences.filter((o) => !conflicts.some((c) => c.start === o.start));
    if (free.length === 0) return await failed(db, id, conflicts);
    const result: VisitResult = await book(free);
    if (result.ok) {
      if (result.appointmentId !== id) await db.delete(series).where(eq(series.id, id));
      else if (conflicts.length > conflictsWritten)
        await db
          .update(series)
          .set({ skipped: skippedOf(conflicts) })
          .where(eq(series.id, id));
      const skipped = result.replayed ? await skippedFor(db, result.appointmentId) : skippedOf(conflicts);
      return {
        series: seriesOf(result.appointmentId, service.id, request.recurrence, result.bookings, skipped),
        replayed: result.replayed,
      };
    }
    if (result.refusal.code !== "slot_unavailable") {
      await db.delete(series).where(eq(series.id, id));
      throwRefusal(result.refusal);
    }
    // Refused: the occurrences the calendars left nobody for, with their reasons, and every other
    // the slot calendar now shows taken (not read when the calendars refused them all).
    const unassignable = result.unassignable ?? [{ segment: result.segment ?? 0, reason: result.refusal.reason }];
    const refused = unassignable.map(({ segment, reason }) => ({ ...(free[segment] as Occurrence), reason }));
    const others = free.filter((o) => !refused.some((r) => r.start === o.start));
    conflicts = merged(conflicts, refused, others.length > 0 ? await previewed(env, service, staffing, others) : []);
    if (request.onConflict === "reject" || result.segment === undefined || attempt >= 3) {
      return await failed(db, id, conflicts);
    }
  }
}

/**
 * The preview of a refused series' other occurrences. A calendar that does not answer it leaves
 * the refusal's own conflict: the 409 still names that occurrence (and `skip` retries without
 * it), rather than an error that would leave the series' row behind.
 */
async function previewed(env: Env, service: ServiceSnapshot, staffing: SeriesAssignees, free: Occurrence[]) {
  try {
    return await slotConflicts(env, service, staffing, free);
  } catch (error) {
    console.error(
      JSON.stringify({ msg: "series conflict preview failed", serviceId: service.id, error: String(error) }),
    );
    return [];
  }
}

/** Known conflicts, then the calendar's refusals, then the preview's; one per occurrence, in order. */
function merged(known: Conflict[], refused: Conflict[], preview: Conflict[]): Conflict[] {
  const byStart = new Map<number, Conflict>();
  for (const c of [...known, ...refused, ...preview]) if (!byStart.has(c.start)) byStart.set(c.start, c);
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** Nothing booked: the series row goes and the 409 lists the conflicts. */
async function failed(db: Database, id: string, conflicts: Conflict[]): Promise<never> {
  await db.delete(series).where(eq(series.id, id));
  throw conflicting(conflicts);
}

/** What a series first answered as skipped (its replay answers the same). */
async function skippedFor(db: Database, id: string) {
  const [row] = await db.select({ skipped: series.skipped }).from(series).where(eq(series.id, id));
  return row?.skipped ?? [];
}
