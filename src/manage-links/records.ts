/**
 * What a customer's manage link opens: its booking with the service's name and policy and the
 * names of the people who perform it, read in one D1 round trip by the booking id the token names,
 * then trusted only if the token's signature is the business's.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { bookingConflicts, bookingProviders, bookings, businesses, customers, providers, services } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { chargePublicRequest } from "../lib/booking-page-throttle";
import { probeShards } from "../shards/probe";
import type { Actor } from "../types/actor";
import { toBooking } from "../types/booking";
import { type LinkedBooking, linkOpens, linkSettings } from "./present";
import { linkKey, parseManageToken, verifyManageToken } from "./tokens";

/** An open link: the booking (with its own URL), where it is, and the service's policy. */
export type OpenLink = {
  businessId: string;
  linkKeyVersion: number;
  booking: LinkedBooking;
  service: {
    id: string;
    name: string;
    durationMinutes: number;
    timezone: string;
    cancellationNoticeMinutes: number;
    rescheduleNoticeMinutes: number;
  };
  providerNames: string[];
  /**
   * The booking has an open conflict and the business asks its customers to move such bookings
   * (`conflicts.notifyCustomer`): the link may move it inside the notice window.
   */
  conflicted: boolean;
};

/** The shard of the booking a manage token names (its signature is checked there), or undefined. */
export async function shardOfLink(env: Env, token: string): Promise<number | undefined> {
  const parsed = linkSettings(env) && parseManageToken(token);
  return parsed ? probeShards(env, "bookings", "id", parsed.bookingId) : undefined;
}

/**
 * The booking a manage token opens now, or undefined — for a malformed, altered or foreign
 * token, a rotated link key, a cancelled booking, an erased customer, a link past its end
 * + 7 days, or a deployment without links — all alike, so an answer says nothing more.
 */
export async function openLink(env: Env, db: Database, token: string, now = Date.now()) {
  const settings = linkSettings(env);
  const parsed = settings && parseManageToken(token);
  if (!settings || !parsed) return undefined;
  const [[row], providerRows] = await db.batch([
    db
      .select({
        booking: bookings,
        serviceName: services.name,
        durationMinutes: services.durationMinutes,
        timezone: services.timezone,
        cancellationNoticeMinutes: services.cancellationNoticeMinutes,
        rescheduleNoticeMinutes: services.rescheduleNoticeMinutes,
        linkKeyVersion: businesses.linkKeyVersion,
        erasedAt: customers.erasedAt,
        conflicted: sql<number>`json_extract(${businesses.conflicts}, '$.notifyCustomer') = 1 AND EXISTS (
          SELECT 1 FROM ${bookingConflicts} WHERE ${bookingConflicts.bookingId} = ${bookings.id}
            AND ${bookingConflicts.clearedAt} IS NULL)`,
      })
      .from(bookings)
      .innerJoin(services, eq(services.id, bookings.serviceId))
      .innerJoin(businesses, eq(businesses.id, bookings.businessId))
      .innerJoin(customers, eq(customers.id, bookings.customerId))
      .where(eq(bookings.id, parsed.bookingId))
      .limit(1),
    db
      .select({ name: providers.name })
      .from(bookingProviders)
      .innerJoin(providers, eq(providers.id, bookingProviders.providerId))
      .where(eq(bookingProviders.bookingId, parsed.bookingId))
      .orderBy(asc(providers.name)),
  ]);
  if (!row) return undefined;
  const key = await linkKey(settings.secret, row.booking.businessId, row.linkKeyVersion);
  if (!(await verifyManageToken(key, parsed.bookingId, parsed.signature))) return undefined;
  if (row.erasedAt !== null || !linkOpens(row.booking, now)) return undefined;
  const link: OpenLink = {
    businessId: row.booking.businessId,
    linkKeyVersion: row.linkKeyVersion,
    booking: { ...toBooking(row.booking), conflicts: [], manageUrl: settings.base + token },
    service: {
      id: row.booking.serviceId,
      name: row.serviceName,
      durationMinutes: row.durationMinutes,
      timezone: row.timezone,
      cancellationNoticeMinutes: row.cancellationNoticeMinutes,
      rescheduleNoticeMinutes: row.rescheduleNoticeMinutes,
    },
    providerNames: providerRows.map((p) => p.name),
    conflicted: Boolean(row.conflicted),
  };
  return link;
}

/** The names of the business's providers `ids`, in name order (as a link's view lists them). */
export async function providerNamesOf(db: Database, businessId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ name: providers.name })
    .from(providers)
    .where(and(eq(providers.businessId, businessId), inArray(providers.id, ids)))
    .orderBy(asc(providers.name));
  return rows.map((row) => row.name);
}

/** Ends every manage link of the business sent so far: its link key moves to the next version. */
export async function rotateLinkKey(db: Database, businessId: string, actor: Actor) {
  const [[row]] = await db.batch([
    db
      .update(businesses)
      .set({ linkKeyVersion: sql`${businesses.linkKeyVersion} + 1`, updatedAt: new Date().toISOString() })
      .where(eq(businesses.id, businessId))
      .returning({ linkKeyVersion: businesses.linkKeyVersion }),
    recordIfChanged(db, {
      businessId,
      actor,
      action: "manageLinks.rotated",
      resource: { type: "business", id: businessId },
      fields: ["linkKeyVersion"],
    }),
  ]);
  return row?.linkKeyVersion ?? 1;
}

/**
 * The link a public request names, charged to its client's address and to the token first
 * (`LINK_LIMITER`, 429 once spent); a 404 that says nothing more when it does not open.
 */
export async function linkFor(env: Env, db: Database, token: string, address: string): Promise<OpenLink> {
  await chargePublicRequest(env.LINK_LIMITER, "link", address, token);
  const link = await openLink(env, db, token);
  if (!link) throw new ApiError("not_found", "There is no booking at this link, or the link has ended.");
  return link;
}
