/**
 * A booking page's booking: a hold placed by the page, turned into the booking by the same path
 * as `POST /bookings` with `holdId` (src/bookings/create.ts), once its token matches. The answer is
 * the booking as its manage link shows it (src/bookings/by-link.ts), with that link.
 */

import { and, asc, eq, inArray } from "drizzle-orm";
import { customerActor } from "../audit/booking-events";
import { managedView } from "../bookings/by-link";
import { createBooking } from "../bookings/create";
import type { Database } from "../db/client";
import { providers, services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { withManageUrl } from "../manage-links/present";
import type { Booking } from "../types/booking";
import type { Answers } from "../types/questions";
import type { PageBusiness } from "./business";
import { holdTokenMatches } from "./hold-token";

/** Who books the held time, and the token that proves the hold is theirs. */
export type PageBookingRequest = {
  holdId: string;
  holdToken: string;
  customerName: string;
  customerEmail: string;
  customerPhone?: string;
  notes?: string;
  answers?: Answers;
};

/** The refusal of a token that is not the hold's (or a hold that is not the page's): nothing changes. */
const wrongToken = () =>
  new ApiError("validation_failed", "This hold token does not belong to the hold.", {
    errors: [{ path: "holdToken", message: "Does not match holdId." }],
  });

/**
 * Books the page's hold for the customer: a token that is not the hold's is a 422 at `holdToken`
 * before anything is asked; an expired, released or consumed hold a 409 `hold_expired`; answers
 * that do not fit the service's questions a 422 at `answers.<key>`. Answers the manage view.
 */
export async function bookPageHold(env: Env, db: Database, page: PageBusiness, request: PageBookingRequest) {
  if (!(await holdTokenMatches(env, page, request.holdId, request.holdToken))) throw wrongToken();
  const { holdToken: _token, ...booking } = request;
  const { booking: made } = await createBooking(
    env,
    db,
    { businessId: page.id, actor: customerActor() },
    booking,
    undefined,
  );
  return viewOf(env, db, page, made);
}

/** The manage view of a booking just made, read from the catalog (D1 may not have the booking yet). */
async function viewOf(env: Env, db: Database, page: PageBusiness, booking: Booking) {
  const [[service], providerRows] = await db.batch([
    db
      .select({
        id: services.id,
        name: services.name,
        durationMinutes: services.durationMinutes,
        timezone: services.timezone,
        cancellationNoticeMinutes: services.cancellationNoticeMinutes,
        rescheduleNoticeMinutes: services.rescheduleNoticeMinutes,
      })
      .from(services)
      .where(and(eq(services.businessId, page.id), eq(services.id, booking.serviceId)))
      .limit(1),
    db
      .select({ name: providers.name })
      .from(providers)
      .where(and(eq(providers.businessId, page.id), inArray(providers.id, [...booking.providerIds, ""])))
      .orderBy(asc(providers.name)),
  ]);
  if (!service) throw new ApiError("unavailable", "The booking was made; its service could not be read. Try again.");
  const linked = await withManageUrl(env, { businessId: page.id, linkKeyVersion: page.linkKeyVersion }, booking);
  return managedView({
    businessId: page.id,
    linkKeyVersion: page.linkKeyVersion,
    booking: linked,
    service,
    providerNames: providerRows.map((p) => p.name),
    // Just booked: nothing has stopped fitting yet.
    conflicted: false,
  });
}
