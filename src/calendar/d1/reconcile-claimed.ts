/**
 * Compares every claimed calendar (a person's, a resource's) with D1's bookings: each upcoming
 * active booking that claims the person or resource (its assignment rows, so a team's booking for each
 * of its people) needs a live claim in that calendar, and each live claim (holds aside) needs
 * such a booking. The service calendars are the entry for bookings, so a claim whose booking is
 * still on its way to D1, or whose release is still owed, is reported as pending, not as wrong.
 */
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createDb, type Database } from "../../db/client";
import { bookingProviders, bookingResources, bookings, providers, resources } from "../../db/schema";
import { mergeReports, onEveryShard } from "../../shards/every";
import { shardOfEnv } from "../../shards/shards";
import type { ClaimedKind, HeldClaim } from "../claim-types";
import { claimedCalendarOf } from "../stubs";

export type ClaimedDifference = {
  businessId: string;
  /** The booking (or, for a claim D1 does not know, the claim) concerned. */
  bookingId: string;
  /**
   * `booking_without_claim`: an upcoming active booking the calendar does not protect;
   * `claim_without_booking`: a claim that no active booking (with these times) explains — young
   * ones are usually a booking still in an outbox or a release in flight.
   */
  kind: "booking_without_claim" | "claim_without_booking";
  ageMs?: number;
} & ({ providerId: string } | { resourceId: string });

export type ClaimedReconciliationReport = {
  providers: number;
  resources: number;
  claims: number;
  differences: ClaimedDifference[];
  /** True when no booking is unprotected and no claim older than `CLAIM_SETTLE_MS` is unexplained. */
  consistent: boolean;
};

const PAGE = 100;
/** Bookings and claims that ended longer ago than this are not compared. */
const HORIZON_MS = 86_400_000;
/** A claim younger than this may belong to a booking or release still on its way. */
export const CLAIM_SETTLE_MS = 60_000;

/** Where each kind's owners and their bookings' assignment rows are. */
const kinds = {
  provider: { owners: providers, links: bookingProviders, owner: bookingProviders.providerId, field: "providerId" },
  resource: { owners: resources, links: bookingResources, owner: bookingResources.resourceId, field: "resourceId" },
} as const;

/** Walks all people and resources (or one business's) page by page and diffs each calendar against D1. */
export async function reconcileClaimed(
  env: Env,
  scope: { businessId?: string } = {},
): Promise<ClaimedReconciliationReport> {
  // The Worker's own env: every shard in turn, one report of them all.
  if (shardOfEnv(env) === undefined) {
    return mergeReports(await onEveryShard(env, (tenant) => reconcileClaimed(tenant, scope)));
  }
  const db = createDb(env.DB);
  const report: ClaimedReconciliationReport = {
    providers: 0,
    resources: 0,
    claims: 0,
    differences: [],
    consistent: true,
  };
  for (const kind of ["provider", "resource"] as const) {
    for await (const owner of ownersOf(db, kinds[kind].owners, scope.businessId)) {
      report[kind === "provider" ? "providers" : "resources"]++;
      await compareOne(env, db, report, kind, owner);
    }
  }
  return report;
}

/** Every owner of one kind (in the scope), a page at a time. */
async function* ownersOf(db: Database, table: typeof providers | typeof resources, businessId?: string) {
  for (let after = ""; ; ) {
    const page = await db
      .select({ id: table.id, businessId: table.businessId })
      .from(table as SQLiteTable)
      .where(and(gt(table.id, after), businessId === undefined ? undefined : eq(table.businessId, businessId)))
      .orderBy(asc(table.id))
      .limit(PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = (page.at(-1) as { id: string }).id;
  }
}

async function compareOne(
  env: Env,
  db: Database,
  report: ClaimedReconciliationReport,
  kind: Exclude<ClaimedKind, "service">,
  owner: { id: string; businessId: string },
): Promise<void> {
  const { links, owner: ownerColumn, field } = kinds[kind];
  const now = Date.now();
  const [{ claims }, upcoming] = await Promise.all([
    claimedCalendarOf(env, owner.businessId, { calendar: kind, id: owner.id }).snapshot(),
    db
      .select({ id: bookings.id, startTime: bookings.startTime, endTime: bookings.endTime })
      .from(bookings)
      .innerJoin(links, eq(links.bookingId as SQLiteColumn, bookings.id))
      .where(
        and(
          eq(links.businessId as SQLiteColumn, owner.businessId),
          eq(ownerColumn as SQLiteColumn, owner.id),
          eq(bookings.businessId, owner.businessId),
          gt(bookings.endTime, new Date(now - HORIZON_MS).toISOString()),
          inArray(bookings.status, ["PENDING", "CONFIRMED"]),
        ),
      ),
  ]);
  report.claims += claims.length;
  const base = { businessId: owner.businessId, [field]: owner.id } as { businessId: string } & Record<
    typeof field,
    string
  >;
  const unexplained = new Map(upcoming.map((b) => [b.id, b]));
  const sameTimes = (b: { startTime: string; endTime: string }, claim: HeldClaim) =>
    Date.parse(b.startTime) === claim.start && Date.parse(b.endTime) === claim.end;
  const byId = (claim: HeldClaim) => {
    const booking = unexplained.get(claim.claimId.split(".")[0] ?? "");
    return booking && sameTimes(booking, claim) ? booking : undefined;
  };
  const byTimes = (claim: HeldClaim) => [...unexplained.values()].find((b) => sameTimes(b, claim));
  const take = (booking: (typeof upcoming)[number] | undefined) =>
    booking !== undefined && unexplained.delete(booking.id);
  // Claims of the same times are interchangeable, so pair them in order of certainty: by booking
  // id, then claims that do not expire, then holds' claims (a hold just booked keeps its claim,
  // with its expiry, until the confirmation lands). Past the horizon D1's side is not read, and
  // the calendar prunes such claims by itself.
  const rest = claims.filter((claim) => claim.end > now - HORIZON_MS && !take(byId(claim)));
  for (const claim of rest) {
    if (claim.expiresAt !== null || take(byTimes(claim))) continue;
    const ageMs = now - claim.createdAt;
    if (ageMs > CLAIM_SETTLE_MS) report.consistent = false;
    report.differences.push({
      ...base,
      bookingId: claim.claimId,
      kind: "claim_without_booking",
      ageMs,
    } as ClaimedDifference);
  }
  // An unmatched hold's claim is a hold not booked (yet).
  for (const claim of rest) if (claim.expiresAt !== null) take(byTimes(claim));
  for (const booking of unexplained.values()) {
    if (Date.parse(booking.endTime) <= now) continue;
    report.differences.push({ ...base, bookingId: booking.id, kind: "booking_without_claim" } as ClaimedDifference);
    report.consistent = false;
  }
}
