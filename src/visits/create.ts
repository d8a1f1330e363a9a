/**
 * A new visit: every segment's service checked as for a booking (found, active, performed by
 * the provider named, answers that fit), each later segment's notice and horizon checked, then
 * the visit decided in its first segment's service calendar, all or none.
 */

import { serviceCalendarOf, type VisitSegment } from "../calendar";
import { checkTiming, segmentTimes } from "../calendar/rules";
import { customerIdByEmail } from "../customers/records";
import type { Database } from "../db/client";
import { ApiError } from "../lib/api-error";
import type { IdempotencyLock } from "../lib/idempotency";
import { newId } from "../lib/ids";
import { throwVisitRefusal } from "../refusals";
import { loadBookableService } from "../services/bookable";
import type { Author } from "../types/actor";
import type { Answers } from "../types/questions";
import { type Visit, visitOf } from "./records";

/** A visit request, as `POST /appointments` validated it. */
export type VisitRequest = {
  customerName: string;
  customerEmail: string;
  customerPhone?: string;
  notes?: string;
  startTime: string;
  segments: { serviceId: string; providerId?: string; answers?: Answers }[];
};

/** A problem about one segment's field, named `segments.<i>.<path>`. */
function atSegment(error: unknown, i: number): unknown {
  if (!(error instanceof ApiError)) return error;
  const errors = (error.errors ?? [{ path: "serviceId", message: error.message }]).map((e) => ({
    ...e,
    path: `segments.${i}.${e.path}`,
  }));
  return new ApiError(error.code, error.message, { errors, extensions: error.extensions, headers: error.headers });
}

/** Each segment's service with its providers and resources (else the first segment's problem); and the customer's id. */
async function loadSegments(db: Database, businessId: string, request: VisitRequest) {
  const loads = await Promise.allSettled(
    request.segments.map((segment, i) => {
      const check = { providerId: segment.providerId, answers: segment.answers ?? {} };
      // The customer is looked up once, beside the first segment's service.
      const load =
        i === 0
          ? loadBookableService(
              db,
              businessId,
              segment.serviceId,
              check,
              customerIdByEmail(db, businessId, request.customerEmail),
            )
          : loadBookableService(db, businessId, segment.serviceId, check);
      return load.catch((error: unknown) => Promise.reject(atSegment(error, i)));
    }),
  );
  const failed = loads.find((l) => l.status === "rejected");
  if (failed) throw failed.reason;
  const loaded = loads.map((l) => (l as PromiseFulfilledResult<Awaited<ReturnType<typeof loadBookableService>>>).value);
  const segments: VisitSegment[] = loaded.map(({ service, providers, resources }, i) => ({
    service,
    providers,
    resources,
    providerId: request.segments[i]?.providerId ?? null,
    answers: request.segments[i]?.answers ?? {},
  }));
  const customer = (loaded[0]?.also[0] as { id: string }[] | undefined)?.[0];
  return { segments, customerId: customer?.id ?? null };
}

/** Later segments start later: each must still respect its own service's notice and horizon (a 422 naming it). */
function checkLaterSegments(startTime: string, segments: VisitSegment[], now: number): void {
  const times = segmentTimes(startTime, segments);
  for (const [i, segment] of segments.entries()) {
    const time = times[i];
    const violation = i > 0 && time && checkTiming(segment.service, time.start, time.end, now);
    if (violation) {
      throw new ApiError("validation_failed", violation.detail, {
        errors: [{ path: `segments.${i}.serviceId`, message: violation.detail }],
        extensions: { reason: violation.reason },
      });
    }
  }
}

/** Books the visit for the business, all segments or none. */
export async function createVisit(
  env: Env,
  db: Database,
  { businessId, actor }: Author,
  request: VisitRequest,
  lock: IdempotencyLock | undefined,
): Promise<{ visit: Visit; replayed: boolean }> {
  const visitId = newId("visit");
  // Decided on what D1 holds; once more if a service changed meanwhile (calendar/service/tables/service-version.ts).
  const decide = async () => {
    const { segments, customerId } = await loadSegments(db, businessId, request);
    checkLaterSegments(request.startTime, segments, Date.now());
    // The first segment's calendar is the visit's entry: it claims every other calendar.
    const entry = serviceCalendarOf(env, businessId, (segments[0] as VisitSegment).service.id);
    return entry.createVisit({
      appointmentId: visitId,
      startTime: request.startTime,
      segments,
      customer: {
        customerName: request.customerName,
        customerEmail: request.customerEmail,
        customerPhone: request.customerPhone ?? null,
        notes: request.notes ?? null,
      },
      customerId,
      idempotency: lock,
      actor,
    });
  };
  let result = await decide();
  if (!result.ok && result.refusal.code === "service_changed") result = await decide();
  if (!result.ok) throwVisitRefusal(result);
  return { visit: visitOf(result.appointmentId, result.bookings), replayed: result.replayed };
}
