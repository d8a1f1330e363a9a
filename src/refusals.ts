/**
 * The calendars' answers as the HTTP problems the client gets, for every domain module that asks
 * a calendar (bookings, visits, series, holds, the waitlist, manage links, people's and resources'
 * settings): a refusal, a booking or its refusal, a visit's refusal naming its segment, and
 * settings a calendar could not take.
 */
import type { CalendarRefusal, CalendarResult, VisitResult } from "./calendar";
import { ApiError } from "./lib/api-error";
import { etagOf } from "./lib/etag";
import type { Booking } from "./types/booking";

/** The booking of a successful calendar call, or the refusal as an HTTP problem. */
export function bookingOrThrow(result: CalendarResult): { booking: Booking; version: number; replayed: boolean } {
  if (result.ok) return result;
  throwRefusal(result.refusal);
}

/** A calendar's refusal as the HTTP problem the client gets. */
export function throwRefusal(refusal: CalendarRefusal): never {
  switch (refusal.code) {
    case "validation_failed":
      throw new ApiError("validation_failed", refusal.detail, {
        errors: [{ path: refusal.field, message: refusal.detail }],
        extensions: { reason: refusal.reason },
      });
    case "slot_unavailable":
      throw new ApiError("slot_unavailable", refusal.detail, { extensions: { reason: refusal.reason } });
    case "unavailable":
    case "service_changed":
      throw new ApiError("unavailable", refusal.detail);
    case "policy_window":
      throw new ApiError("policy_window", refusal.detail, { extensions: { until: refusal.until } });
    case "precondition_failed":
      throw new ApiError("precondition_failed", refusal.detail, { headers: { ETag: etagOf(refusal.version) } });
    case "no_such_hold":
      throw new ApiError("validation_failed", refusal.detail, {
        errors: [{ path: "holdId", message: "No such hold." }],
      });
    case "hold_limit_reached":
      throw new ApiError("hold_limit_reached", refusal.detail, { extensions: { reason: refusal.reason } });
    case "hold_mismatch":
      throw new ApiError("validation_failed", refusal.detail, { errors: refusal.errors });
    default:
      throw new ApiError(refusal.code, refusal.detail);
  }
}

/** A visit's refusal as the HTTP problem the client gets: a segment that refused is named. */
export function throwVisitRefusal(result: Extract<VisitResult, { ok: false }>): never {
  const { refusal, segment } = result;
  if (refusal.code === "slot_unavailable") {
    throw new ApiError("slot_unavailable", refusal.detail, {
      extensions: { reason: refusal.reason, ...(segment === undefined ? {} : { segment }) },
    });
  }
  throwRefusal(refusal);
}

/**
 * Pushes a stored provider's or resource's settings to its calendar before the write is answered,
 * so once a client sees the new version no claim is decided against older settings. If the
 * calendar cannot be reached the change stays stored and the client gets a 503 (with
 * `Retry-After`, as every 503) to retry; the calendar also adopts the newest settings sent with
 * every claim.
 */
export async function pushSettings(kind: "provider" | "resource", id: string, push: () => Promise<unknown>) {
  try {
    await push();
  } catch (error) {
    console.error(
      JSON.stringify({ msg: `${kind} calendar configure failed`, [`${kind}Id`]: id, error: String(error) }),
    );
    throw new ApiError(
      "unavailable",
      `The ${kind} was saved but its calendar could not be updated; retry the request.`,
    );
  }
}
