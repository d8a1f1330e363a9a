/**
 * Compares every provider calendar with D1's bookings: each upcoming active booking of a
 * provider needs a live claim on that person's time, and each live claim (holds aside) needs
 * such a booking. The service calendars are the entry for bookings, so a claim whose booking is
 * still on its way to D1, or whose release is still owed, is reported as pending, not as wrong.
 */
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { createDb } from "../../db/client";
import { bookings, providers } from "../../db/schema";
import { providerCalendarOf } from "../stubs";

export type ProviderDifference = {
  businessId: string;
  providerId: string;
  /** The booking (or, for a claim D1 does not know, the claim) concerned. */
  bookingId: string;
  /**
   * `booking_without_claim`: an upcoming active booking the person's calendar does not protect;
   * `claim_without_booking`: a claim on the person's time that no active booking (with these
   * times) explains — young ones are usually a booking still in an outbox or a release in flight.
   */
  kind: "booking_without_claim" | "claim_without_booking";
  ageMs?: number;
};

export type ProviderReconciliationReport = {
  providers: number;
  claims: number;
  differences: ProviderDifference[];
  /** True when no booking is unprotected and no claim older than `CLAIM_SETTLE_MS` is unexplained. */
  consistent: boolean;
};

const PAGE = 100;
/** Bookings and claims that ended longer ago than this are not compared. */
const HORIZON_MS = 86_400_000;
/** A claim younger than this may belong to a booking or release still on its way. */
export const CLAIM_SETTLE_MS = 60_000;

/** Walks all providers (or one business's) page by page and diffs each one's live claims against D1. */
export async function reconcileProviders(
  env: Env,
  scope: { businessId?: string } = {},
): Promise<ProviderReconciliationReport> {
  const db = createDb(env.DB);
  const report: ProviderReconciliationReport = { providers: 0, claims: 0, differences: [], consistent: true };
  const now = Date.now();
  for (let after = ""; ; ) {
    const page = await db
      .select({ id: providers.id, businessId: providers.businessId })
      .from(providers)
      .where(
        and(
          gt(providers.id, after),
          scope.businessId === undefined ? undefined : eq(providers.businessId, scope.businessId),
        ),
      )
      .orderBy(asc(providers.id))
      .limit(PAGE);
    for (const provider of page) {
      const [{ claims }, upcoming] = await Promise.all([
        providerCalendarOf(env, provider.businessId, provider.id).snapshot(),
        db
          .select({ id: bookings.id, startTime: bookings.startTime, endTime: bookings.endTime })
          .from(bookings)
          .where(
            and(
              eq(bookings.businessId, provider.businessId),
              eq(bookings.providerId, provider.id),
              gt(bookings.endTime, new Date(now - HORIZON_MS).toISOString()),
              inArray(bookings.status, ["PENDING", "CONFIRMED"]),
            ),
          ),
      ]);
      report.providers++;
      report.claims += claims.length;
      const base = { businessId: provider.businessId, providerId: provider.id };
      const unexplained = new Map(upcoming.map((b) => [b.id, b]));
      const unexplainedClaim = (claim: (typeof claims)[number]): ProviderDifference => {
        const ageMs = now - claim.createdAt;
        if (ageMs > CLAIM_SETTLE_MS) report.consistent = false;
        return { ...base, bookingId: claim.claimId, kind: "claim_without_booking", ageMs };
      };
      const sameTimes = (b: { startTime: string; endTime: string }, claim: { start: number; end: number }) =>
        Date.parse(b.startTime) === claim.start && Date.parse(b.endTime) === claim.end;
      // Claims of the same times are interchangeable, so pair them in order of certainty: by
      // booking id, then claims that do not expire, then holds' claims (a hold just booked keeps
      // its claim, with its expiry, until the confirmation lands).
      const current = claims.filter((claim) => claim.end > now - HORIZON_MS);
      const byId = (claim: (typeof claims)[number]) => {
        const booking = unexplained.get(claim.claimId.split(".")[0] ?? "");
        return booking && sameTimes(booking, claim) ? booking : undefined;
      };
      const byTimes = (claim: (typeof claims)[number]) => [...unexplained.values()].find((b) => sameTimes(b, claim));
      const take = (booking: (typeof upcoming)[number] | undefined) =>
        booking !== undefined && unexplained.delete(booking.id);
      const rest = current.filter((claim) => !take(byId(claim)));
      for (const claim of rest) {
        if (claim.expiresAt === null && !take(byTimes(claim))) report.differences.push(unexplainedClaim(claim));
      }
      // An unmatched hold's claim is a hold not booked (yet).
      for (const claim of rest) if (claim.expiresAt !== null) take(byTimes(claim));
      for (const booking of unexplained.values()) {
        if (Date.parse(booking.endTime) <= now) continue;
        report.differences.push({ ...base, bookingId: booking.id, kind: "booking_without_claim" });
        report.consistent = false;
      }
    }
    if (page.length < PAGE) break;
    after = (page.at(-1) as { id: string }).id;
  }
  return report;
}
